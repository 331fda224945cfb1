import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_JSON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');

/**
 * The Node flags `npm start` runs the api with (package.json's `start`, which compose.yaml and the Dockerfile
 * repeat: test/compose.test.ts), so every other start of the api (`make dev`, the benchmarks) runs it alike.
 */
export function apiNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { scripts: { start: string } };
  const [node, ...rest] = pkg.scripts.start.split(/\s+/);
  if (node !== 'node') throw new Error(`package.json's start script must run node, not ${node}`);
  return rest.filter((arg) => arg.startsWith('--'));
}
