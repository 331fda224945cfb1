import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The queue of postgres.js's pool, as the pool uses it (docs/decisions/patched-libraries.md). */
interface PoolQueue<T> {
  readonly length: number;
  /** Backing-array slots, holes included; only the patched queue has it. */
  readonly slots?: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => PoolQueue<T>;

const installed = path.resolve('node_modules/postgres');
const requireCjs = createRequire(import.meta.url);
const builds: [name: string, load: () => Promise<QueueFactory>][] = [
  ['ESM (what the api and worker import)', async () => (await import(pathToFileURL(path.join(installed, 'src/queue.js')).href)).default],
  ['CommonJS', async () => requireCjs(path.join(installed, 'cjs/src/queue.js'))],
  ['Cloudflare', async () => (await import(pathToFileURL(path.join(installed, 'cf/src/queue.js')).href)).default],
];

const connections = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }));

describe.each(builds)("postgres.js's pool queue as installed, %s", (_name, load) => {
  it('stays bounded while idle connections rotate, as every query of a quiet pool does', async () => {
    const Queue = await load();
    const all = connections(10);
    const open = Queue(all);
    // A query takes the oldest open connection; the pool then moves it (remove from `open`, where it no longer
    // is) to busy, and back to `open` when the query is done. The queue never empties while others idle.
    let outOfOrder = 0;
    for (let query = 0; query < 100_000; query++) {
      const c = open.shift()!;
      if (c !== all[query % 10] || open.remove(c) !== null) outOfOrder++;
      open.push(c);
    }
    expect(outOfOrder).toBe(0);
    expect(open.length).toBe(10);
    expect(open.slots).toBeLessThanOrEqual(2 * 10 + 64);
  });

  it('keeps first-in first-out order across removals and compaction', async () => {
    const Queue = await load();
    const all = connections(300);
    const q = Queue<{ id: number }>();
    for (const c of all) q.push(c);
    for (let i = 0; i < 150; i++) expect(q.shift()).toBe(all[i]);
    expect(q.remove(all[200]!)).toBe(all[200]);
    expect(q.remove(all[10]!)).toBeNull(); // already taken
    const rest: number[] = [];
    while (q.length) rest.push(q.shift()!.id);
    expect(rest).toEqual(
      all
        .slice(150)
        .filter((c) => c.id !== 200)
        .map((c) => c.id),
    );
    expect(q.slots).toBe(0);
  });
});

describe('the patch that bounds it (patches/, applied by patch-package at npm ci)', () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  const installedVersion = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')).version;

  it('is for the exact postgres.js version package.json pins and npm installed', () => {
    // A range would let an update install a version the patch was not reviewed against (docs/decisions/patched-libraries.md).
    expect(manifest.dependencies.postgres).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installedVersion).toBe(manifest.dependencies.postgres);
    expect(readdirSync('patches').filter((f) => f.startsWith('postgres+'))).toEqual([`postgres+${installedVersion}.patch`]);
  });

  it('is applied at every install, failing the install when it no longer applies', () => {
    expect(manifest.scripts.postinstall).toBe('patch-package --error-on-fail');
    // A production install (npm ci --omit=dev, the image) runs the postinstall too, so the tool is no dev dependency.
    expect(Object.keys(manifest.dependencies)).toContain('patch-package');
  });
});
