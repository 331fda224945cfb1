import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimersQueue, type RunTimerJob } from '../core/jobs';
import { createSql, type Sql } from '../db/client';
import { listRuns } from '../db/timer-runs';
import { type ComposeFile, loadCompose, serviceEnvironment } from './support/compose';
import { layoutImage, type Layout } from './support/image-layout';
import { adminUrl, createOwnedDatabase, dropDatabase, testDatabaseName, withAdmin } from '../dev/harness/pg';
import { type ChildServer, freePort, type SpawnOptions, spawnNode, startChild } from '../dev/harness/processes';
import { createTestRedis, deletePrefix, testQueuePrefix, testRedisUrl } from '../dev/harness/redis';
import { expectBullBoard, expectPageWithIslandScripts } from './support/served';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';
import { enqueueScheduledFire } from './support/runs';

// The image, without Docker: the Dockerfile's final stage laid out in a temporary directory (its COPY lines,
// production dependencies only), started with compose.yaml's commands and environment (a fresh machine: no
// .env), as an unprivileged user that cannot write there, against the real Postgres and Redis. Compose's
// service addresses become loopback ports; nothing else is changed. A file the image lacks, a dev dependency
// used at run time or a write into the image fails here. dist/ comes from the same build as the build stage's (vitest's global setup runs it).

/** The image's USER: root here runs the processes as nobody, who can read the layout but not write it. */
const UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

/**
 * The image brings its own node. Here it is the one running the tests, copied to a folder the image's user can
 * enter when that user cannot reach it (a checkout under a folder only root enters, with the node `make` fetched
 * into it); null: used as it is.
 */
function reachableNode(): string | null {
  if (UNPRIVILEGED.uid === undefined) return null;
  if (spawnSync(process.execPath, ['--version'], UNPRIVILEGED).status === 0) return null;
  const dir = mkdtempSync(path.join(tmpdir(), 'eventfinder-image-node-'));
  chmodSync(dir, 0o755);
  copyFileSync(process.execPath, path.join(dir, 'node'));
  chmodSync(path.join(dir, 'node'), 0o755);
  return path.join(dir, 'node');
}

function command(compose: ComposeFile, service: string): string[] {
  const cmd = compose.services[service]?.command;
  if (cmd?.[0] !== 'node') throw new Error(`compose.yaml: the ${service} service's command must be ["node", ...]`);
  return cmd.slice(1);
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('the image as compose.yaml runs it', () => {
  const compose = loadCompose();
  const prefix = testQueuePrefix();
  const database = testDatabaseName();
  let layout: Layout;
  let stateDir: string;
  let sql: Sql;
  let redis: Redis;
  let queue: Queue<RunTimerJob>;
  let standins: ChildServer;
  let api: ChildServer;
  let worker: ChildProcess;
  let apiPort: number;
  let standinPort: number;
  const admin = { user: 'ops', password: 'image check' };

  /** The environment compose.yaml gives `service`, with its service addresses mapped to this machine. */
  function env(service: string, extra: Record<string, string> = {}): Record<string, string> {
    const composed = serviceEnvironment(compose.services[service]!, { imageEnv: layout.env });
    const hosts: [string, string][] = [
      ['standins:8090', `127.0.0.1:${standinPort}`],
      ['localhost:8090', `localhost:${standinPort}`],
      ['api:8080', `127.0.0.1:${apiPort}`],
    ];
    const mapped = Object.fromEntries(
      Object.entries(composed).map(([k, v]) => [k, hosts.reduce((s, [from, to]) => s.replaceAll(from, to), v)]),
    );
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: stateDir,
      ...mapped,
      // What a .env on this machine would say: where Postgres, Redis and the app are, and the board's login.
      DATABASE_URL: adminUrl(database),
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: prefix,
      APP_URL: `http://127.0.0.1:${apiPort}`,
      ADMIN_USER: admin.user,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      ...(mapped.STANDIN_STATE_DIR ? { STANDIN_STATE_DIR: path.join(stateDir, 'standins') } : {}),
      ...extra,
    };
  }
  let node: string | null = null;
  const spawnOptions = (): SpawnOptions => ({ cwd: layout.dir, inheritEnv: false, ...UNPRIVILEGED, ...(node ? { node } : {}) });

  beforeAll(async () => {
    layout = layoutImage();
    node = reachableNode();
    // Not root: the processes run as this user, so the layout itself is made read-only instead.
    if (UNPRIVILEGED.uid === undefined) execFileSync('chmod', ['-R', 'a-w', layout.dir]);
    stateDir = mkdtempSync(path.join(tmpdir(), 'eventfinder-image-home-'));
    chmodSync(stateDir, 0o700);
    if (UNPRIVILEGED.uid !== undefined) chownSync(stateDir, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
    [apiPort, standinPort] = [await freePort(), await freePort()];
    await withAdmin((a) => createOwnedDatabase(a, database));

    standins = await startChild(command(compose, 'standins'), env('standins'), {
      port: standinPort,
      readyPath: '/',
      ...spawnOptions(),
    });
    // A one-shot on an empty database: every migration the image ships is applied by the image's migrate.
    const migrate = spawnNode(command(compose, 'migrate'), env('migrate'), spawnOptions());
    expect(await exitOf(migrate), 'migrate exits 0').toBe(0);
    api = await startChild(command(compose, 'api'), env('api'), { port: apiPort, readyPath: '/readyz', ...spawnOptions() });
    worker = spawnNode(command(compose, 'worker'), env('worker'), spawnOptions());

    sql = createSql(adminUrl(database), { max: 2 });
    redis = createTestRedis();
    queue = createTimersQueue(redis, prefix);
  }, 120_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await exitOf(worker);
    }
    await api?.stop();
    await standins?.stop();
    await queue?.close();
    if (redis) {
      await deletePrefix(redis, prefix);
      redis.disconnect();
    }
    await sql?.end();
    await dropDatabase(database);
    if (layout && UNPRIVILEGED.uid === undefined) execFileSync('chmod', ['-R', 'u+w', layout.dir]);
    layout?.remove();
    if (node) rmSync(path.dirname(node), { recursive: true, force: true });
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('answers /readyz, and compose.yaml’s own healthchecks pass against the api and the stand-ins', async () => {
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
    for (const [service, port] of [
      ['api', apiPort],
      ['standins', standinPort],
    ] as const) {
      const [kind, ...argv] = compose.services[service]!.healthcheck!.test;
      expect(kind).toBe('CMD');
      const check = argv.map((a) => a.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`).replaceAll('127.0.0.1:8090', `127.0.0.1:${port}`));
      expect(check[0]).toBe('node');
      const child = spawn(process.execPath, check.slice(1), { cwd: layout.dir, stdio: 'ignore' });
      expect(await exitOf(child), `${service} healthcheck`).toBe(0);
    }
  });

  it('serves the page with its hashed island scripts, and the sign-in script from the browser’s stand-in address', async () => {
    const { html, headers } = await expectPageWithIslandScripts(api.url);
    // The browser loads the sign-in script from STANDIN_PUBLIC_URL (compose: localhost), not the servers' address.
    expect(html).toContain(`http://localhost:${standinPort}/gsi/client`);
    expect(headers.get('content-security-policy')).toContain(`http://localhost:${standinPort}`);
    const gsi = await fetch(`http://127.0.0.1:${standinPort}/gsi/client`);
    expect(gsi.status).toBe(200);
    expect(await gsi.text()).toContain('google');
  });

  it('serves Bull Board and its UI files', async () => {
    await expectBullBoard(api.url, admin.user, admin.password);
  });

  it('opens Stripe checkout on the stand-in’s browser address', async () => {
    const { cookie } = await createSignedInUser(sql);
    const res = await fetch(`${api.url}/create-checkout-session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: api.url },
      body: JSON.stringify({ lookup_key: 'plus_monthly' }),
    });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url.startsWith(`http://localhost:${standinPort}/`)).toBe(true);
  });

  it('the worker runs a timer, reading a sample website of the stand-ins', async () => {
    const { cookie } = await createSignedInUser(sql);
    const website = `http://127.0.0.1:${standinPort}/sites/berlin-ai.html`;
    const res = await fetch(`${api.url}/api/schedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: api.url },
      body: JSON.stringify(dailyTimer({ web: website })),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { id } = (await res.json()) as { id: number };
    // One fire, as the timer's scheduler would enqueue it.
    await enqueueScheduledFire(queue, id, Date.now());
    const run = await until('the timer run', async () => {
      if (worker.exitCode !== null) throw new Error(`the worker exited with ${worker.exitCode}`);
      const [latest] = await listRuns(sql, id);
      return latest && latest.status !== 'running' ? latest : undefined;
    });
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(run.answer).toContain(`I found 3 events on ${website}`);
  });

  it("holds postgres.js with its pool queue bounded by the production install's patch-package (docs/decisions/patched-libraries.md)", () => {
    for (const build of ['src', 'cjs/src']) {
      // The patch's compaction (patches/postgres+*.patch): the unpatched queue has no `slots`.
      expect(readFileSync(path.join(layout.dir, 'node_modules/postgres', build, 'queue.js'), 'utf8'), build).toContain('get slots()');
    }
  });

  it('the worker stops with exit code 0 on SIGTERM', async () => {
    worker.kill('SIGTERM');
    expect(await exitOf(worker)).toBe(0);
  });
});
