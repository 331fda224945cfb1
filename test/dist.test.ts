import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/db';
import { startChild, type ChildServer } from './support/processes';
import { expectBullBoard, expectPageWithIslandScripts } from './support/served';
import { createTestRedis, deletePrefix, testQueuePrefix, testRedisUrl } from './support/redis';

// What production runs: the bundles in dist/ (make test builds them first), started as `npm start` and
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

  it('the worker starts, and stops with exit code 0 on SIGTERM', async () => {
    const worker = spawn(process.execPath, ['dist/server/worker.js'], { env: { ...process.env, ...env() }, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    // Up and connected once it has reconciled its (empty) set of schedulers: give it a moment, it must not exit.
    const early = await Promise.race([exited, new Promise((r) => setTimeout(() => r('running'), 1500))]);
    expect(early).toBe('running');
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
