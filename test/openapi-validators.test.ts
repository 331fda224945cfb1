import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../dev/harness/stack';

const REDOCLY = join(import.meta.dirname, '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const CONFIG = join(import.meta.dirname, '..', 'redocly.yaml');
// Redocly's usage reports and update check stay off: tests send traffic only to loopback.
const QUIET = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** Redocly CLI's lint of a document file (redocly.yaml's rules): its exit code and the problems it found. */
function redoclyLint(file: string): { status: number | null; problems: { ruleId: string; message: string }[] } {
  const run = spawnSync(process.execPath, [REDOCLY, 'lint', file, '--config', CONFIG, '--format=json'], { env: QUIET, encoding: 'utf8' });
  const json = run.stdout.slice(run.stdout.indexOf('{'), run.stdout.lastIndexOf('}') + 1);
  return { status: run.status, problems: (JSON.parse(json) as { problems: { ruleId: string; message: string }[] }).problems };
}

// openapi-spec-validator is Python, and Debian (bookworm) has no package of it: the check runs where a python3
// with the module is installed (`pip install openapi-spec-validator`), and says it was not run elsewhere.
const python = spawnSync('python3', ['-c', 'import openapi_spec_validator'], { encoding: 'utf8' });
const specValidatorHere = python.status === 0;
const specValidate = (file: string) => spawnSync('python3', ['-m', 'openapi_spec_validator', file], { encoding: 'utf8' });

/** Two independent validators over the document the server serves at /api/openapi.json. */
describe('/api/openapi.json checked by Redocly CLI and openapi-spec-validator', () => {
  let stack: TestStack;
  let served: Record<string, unknown>;
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  const file = (name: string, doc: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(doc, null, 2));
    return path;
  };
  // The same document with one reply's required description taken out: both validators must refuse it.
  const broken = () => {
    const doc = structuredClone(served) as {
      paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>>;
    };
    delete doc.paths['/v1/search']!.post!.responses['200']!.description;
    return doc;
  };

  beforeAll(async () => {
    stack = await startTestStack({ searchEvents: false });
    const res = await fetch(`${stack.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    served = (await res.json()) as Record<string, unknown>;
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('passes redocly lint with the strict recommended rules: no error, no warning', () => {
    expect(redoclyLint(file('served.json', served))).toEqual({ status: 0, problems: [] });
    const refused = redoclyLint(file('broken.json', broken()));
    expect(refused.status).not.toBe(0);
    expect(refused.problems.length).toBeGreaterThan(0);
  });

  it.skipIf(!specValidatorHere)('passes openapi-spec-validator (Python; skipped where it is not installed)', () => {
    const ok = specValidate(file('served.json', served));
    expect(ok.stdout.trim(), ok.stderr).toMatch(/: OK$/);
    expect(ok.status).toBe(0);
    expect(specValidate(file('broken.json', broken())).status).not.toBe(0);
  });
});
