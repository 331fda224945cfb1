import { spawn } from 'node:child_process';
import path from 'node:path';
import { Piscina } from 'piscina';
import { decodeAnswer } from '../core/reading/thread-wire';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { startChild, type ChildServer } from '../dev/harness/processes';
import { expectBullBoard, expectPageWithIslandScripts } from './support/served';
import { createTestRedis, deletePrefix, testQueuePrefix, testRedisUrl } from '../dev/harness/redis';

// What production runs: the bundles in dist/ (vitest's global setup builds them, as make build does), started as `npm start` and
// `npm run worker` start them, with their own database and queue prefix.
describe('the built server and worker from dist/', () => {
  let db: TestDatabase;
  let api: ChildServer;
  const prefix = testQueuePrefix();
  const env = () => ({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: prefix,
    // Nothing here calls Google, Gemini or Stripe; unset credentials point at an address nobody answers.
    STANDIN_URL: 'http://127.0.0.1:9',
    ADMIN_USER: 'ops',
    ADMIN_PASSWORD: 'dist check',
    LOG_LEVEL: 'silent',
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startChild(['dist/server/api.js'], env());
  });
  afterAll(async () => {
    await api?.stop();
    const redis = createTestRedis();
    await deletePrefix(redis, prefix);
    redis.disconnect();
    await db?.drop();
  });

  it('serves the page with its hashed island scripts', async () => {
    await expectPageWithIslandScripts(api.url);
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
  });

  it('serves Bull Board and its UI files, which it finds at run time', async () => {
    await expectBullBoard(api.url, 'ops', 'dist check');
  });

  /** Starts the built worker with its logs on stdout, so a test can wait for what it says. */
  function startWorker() {
    const child = spawn(process.execPath, ['dist/server/worker.js'], {
      env: { ...process.env, ...env(), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const messages: string[] = [];
    const waiters: { msg: string; resolve: () => void }[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const msg = (JSON.parse(line) as { msg: string }).msg;
      messages.push(msg);
      for (const w of waiters.filter((w) => w.msg === msg)) w.resolve();
    });
    const logged = (msg: string) =>
      messages.includes(msg) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ msg, resolve }));
    return { child, exited, messages, logged };
  }

  it('the worker starts, and stops with exit code 0 on SIGTERM', async () => {
    const worker = startWorker();
    // Up and connected once its BullMQ worker takes jobs and it says so (its start pass runs beside the jobs).
    await Promise.race([worker.logged('worker ready'), worker.exited.then((code) => Promise.reject(new Error(`exited with ${code}`)))]);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.messages).toContain('stopped');
  });

  it('a SIGTERM while the worker is still starting stops it gracefully too', async () => {
    const worker = startWorker();
    // Said once the handlers are in place, before the BullMQ worker starts.
    await Promise.race([worker.logged('worker starting'), worker.exited.then((code) => Promise.reject(new Error(`exited with ${code}`)))]);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.messages).toContain('stopped');
  });

  it('the reading thread is its own bundle beside api.js and worker.js, and reads a page there', async () => {
    // As core/reading/pool.ts loads it from a bundle: the file beside the entry, plain JavaScript, no tsx.
    const pool = new Piscina({ filename: path.resolve('dist/server/reading-thread.js'), maxThreads: 1 });
    try {
      const body = '<script type="application/ld+json">{"@type":"Event","name":"Built show","startDate":"2026-06-01T19:00"}</script>';
      const step = {
        kind: 'page',
        page: { url: 'https://built.example/', contentType: 'text/html', body },
        context: { searcherTimezone: 'UTC', now: Date.UTC(2026, 4, 1) },
      };
      const answer = decodeAnswer(await pool.run({ step, maxEvents: 100 }));
      if (!('result' in answer)) throw new Error('the built reading thread refused a one-event page');
      expect(answer.result.events.map((e) => [e.title, e.starts_at])).toEqual([['Built show', '2026-06-01T19:00:00+00:00']]);
    } finally {
      await pool.close();
    }
  });
});
