import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('the Node the project runs on', () => {
  it('is one LTS line everywhere: the pin, engines, the type definitions and every image stage', () => {
    const pinned = read('.node-version').trim();
    const [major, minor] = pinned.split('.').map(Number);
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; devDependencies: Record<string, string> };
    const minimum = /^>=(\d+)\.(\d+)$/.exec(pkg.engines.node);
    expect(minimum, 'engines.node reads ">=MAJOR.MINOR" (dev/ensure-node.sh parses it)').not.toBeNull();
    expect(Number(minimum![1])).toBe(major);
    expect(Number(minimum![2])).toBeLessThanOrEqual(minor!);
    expect(pkg.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${major}\\.`));
    const stages = read('Dockerfile').match(/^FROM \S+/gm) ?? [];
    expect(stages.length).toBeGreaterThan(0);
    for (const stage of stages) expect(stage).toMatch(new RegExp(`^FROM node:${major}-`));
    // What the tests run on here is the pin (make puts the fetched one first) or a newer one.
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(major!);
  });
});
