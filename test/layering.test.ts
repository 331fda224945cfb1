import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The layering rule as `make lint` runs it: dependency-cruiser with the project's .dependency-cruiser.cjs.

const ROOT = process.cwd();
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');

/** The folders `make lint` checks, read from the Makefile so the test checks what lint checks. */
const LAYERS = /^LAYERS := (.+)$/m.exec(readFileSync(path.join(ROOT, 'Makefile'), 'utf8'))![1]!.split(' ');

/** Runs depcruise in `cwd` over `folders`; its exit code is the number of errors, each named on a line. */
async function depcruise(cwd: string, folders: string[]): Promise<{ code: number; violations: string[]; output: string }> {
  const run = promisify(execFile);
  try {
    const { stdout } = await run(DEPCRUISE, ['--config', CONFIG, ...folders], { cwd });
    return { code: 0, violations: [], output: stdout };
  } catch (err) {
    const { code, stdout = '', stderr = '' } = err as { code?: number; stdout?: string; stderr?: string };
    // One violation per `error rule: from → to`; a cycle's path goes on over indented lines.
    const violations = [...stdout.matchAll(/^ {2}error (\S+): (.+(?:\n {4,}.+)*)/gm)].map(
      (m) => `${m[1]}: ${m[2]!.replace(/\s+/g, ' ').trim()}`,
    );
    return { code: typeof code === 'number' ? code : -1, violations, output: stdout + stderr };
  }
}

describe('the layering rule (make lint)', () => {
  it('fails on an upward import, naming the rule and the import, and lets the allowed ones through', async () => {
    // test/fixtures/layering/README.md lists what its tree holds: five imports against the rules beside allowed ones.
    const result = await depcruise(path.join(ROOT, 'test/fixtures/layering'), ['core', 'db', 'dev', 'test', 'web']);
    expect(result.code, result.output).toBe(5);
    expect(result.violations.sort()).toEqual([
      'db-imports-no-core-logic: db/accounts.ts → core/plans.ts',
      'no-circular: core/ping.ts → core/pong.ts → core/ping.ts',
      'time-imports-no-other-core: core/time/day.ts → core/events/kind.ts',
      'tools-import-no-tests: dev/run.ts → test/support/stack.ts',
      'web-imports-only-browser-safe: web/page.ts → core/secret.ts',
    ]);
  });

  it('passes on the real tree', async () => {
    const result = await depcruise(ROOT, LAYERS);
    expect(result.violations).toEqual([]);
    expect(result.code, result.output).toBe(0);
  });
});
