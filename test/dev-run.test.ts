import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devFetchAllow } from '../dev/run';
import { createGeminiStandin } from '../dev/standins/gemini';
import { startStandins } from '../dev/standins/server';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { createTestRedis, deletePrefix, testQueuePrefix, testRedisUrl } from '../dev/harness/redis';
import { createSignedInUser } from '../dev/harness/users';
import { freePort } from '../dev/harness/processes';
import { until } from '../dev/harness/wait';

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Every process below `root` (Linux /proc), so the test can tell whether any of them outlives the runner. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(entry), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const [child, ppid] of parent) {
      if (ppid === pid) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/**
 * Whether `pid` still runs. A zombie (state Z) has exited and holds no port or memory; it only waits for its parent
 * to read its status, and once the runner is gone that parent is the container's init, which may never do so.
 */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The command lines of the processes still running, to name them when one outlives the runner. */
function describeProcesses(pids: number[]): string {
  return pids
    .map((pid) => {
      try {
        return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`;
      } catch {
        return `${pid}: (gone)`;
      }
    })
    .join('\n');
}

describe('make dev helpers', () => {
  it('lets the server read the stand-in sample sites under both loopback names', () => {
    expect(devFetchAllow([], '127.0.0.1', 8090)).toEqual(['127.0.0.1:8090', 'localhost:8090']);
    expect(devFetchAllow(['events.internal'], 'localhost', 9000)).toEqual(['events.internal', '127.0.0.1:9000', 'localhost:9000']);
    expect(devFetchAllow(['localhost:8090'], '127.0.0.1', 8090)).toEqual(['localhost:8090', '127.0.0.1:8090']);
    expect(devFetchAllow([], 'standins.lan', 8090)).toEqual(['standins.lan:8090']);
  });

  it('lists the sample websites at /sites and /sites/', async () => {
    const { app } = createGeminiStandin();
    for (const path of ['/sites', '/sites/']) {
      const res = await app.request(`http://127.0.0.1:8090${path}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('http://127.0.0.1:8090/sites/upcoming/berlin-ai.html');
      expect(html).toContain('http://127.0.0.1:8090/sites/upcoming/meetups.ics');
    }
  });

  it('says which port is taken when the stand-ins cannot listen', async () => {
    const first = await startStandins({ port: 0, appUrl: 'http://localhost:1', googleClientId: 'x', stripeWebhookSecret: 'whsec_x' });
    try {
      await expect(
        startStandins({ port: first.port, appUrl: 'http://localhost:1', googleClientId: 'x', stripeWebhookSecret: 'whsec_x' }),
      ).rejects.toThrow(`The stand-ins cannot listen on 127.0.0.1:${first.port}: the port is in use`);
    } finally {
      await first.close();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('the make dev runner (dev/run.ts)', () => {
  let db: TestDatabase;
  let runner: ChildProcess | null = null;
  let output = '';
  const prefix = testQueuePrefix();

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    if (runner?.pid && alive(runner.pid)) runner.kill('SIGKILL');
    const redis = createTestRedis();
    await deletePrefix(redis, prefix);
    redis.disconnect();
    await db.drop();
  });

  it('serves the product with the sample sites readable, prints readable logs, and SIGTERM to the runner alone leaves no process or port behind', async () => {
    const port = await freePort();
    const standinPort = await freePort();
    const smtpPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_NO_WARNINGS: '1',
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      STANDIN_URL: `http://127.0.0.1:${standinPort}`,
      STANDIN_SMTP_PORT: String(smtpPort),
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'info',
    };
    const proc = spawn(process.execPath, ['--import', 'tsx', 'dev/run.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    runner = proc;
    proc.stdout!.on('data', (d) => (output += d));
    proc.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));

    // The address is printed once the start page answers there, not before.
    await until('the address to be printed', () => output.includes(`dev: open http://localhost:${port}\n`), 90_000);
    expect((await fetch(`http://localhost:${port}/`)).status).toBe(200);
    await until('the api to be ready', async () => ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok ? true : undefined), 45_000);

    // The api was handed WEBSITE_FETCH_ALLOW for the stand-in host, under the name the app itself uses too.
    const { cookie } = await createSignedInUser(db.sql);
    const answer = await until(
      'an answer that read the sample site',
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/ask`, {
          method: 'POST',
          headers: { cookie, origin: `http://localhost:${port}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ques: 'What is on?', web: `http://localhost:${standinPort}/sites/berlin-ai.html` }),
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`${res.status} ${text}`);
        return text;
      },
      20_000,
    );
    expect(answer).toContain('Applied ML Summit Berlin 2026');
    // The mailbox of the SMTP stand-in is announced and served.
    expect(output).toContain(`read them at http://127.0.0.1:${standinPort}/mail/`);
    expect((await fetch(`http://127.0.0.1:${standinPort}/mail/messages`)).status).toBe(200);
    // The api's JSON log lines show readably here (pino-pretty, in make dev only).
    await until('the api’s start line', async () => (/\] INFO \(api\): listening on /.test(output) ? true : undefined), 5_000);
    expect(output).not.toMatch(/^\{"level"/m);
    // One line per request and per message, each start-up message once.
    await until('the ask’s request line', () => /\] INFO \(api\): POST \/api\/ask 200 [\d.]+ ms/.test(output), 5_000);
    expect(output).not.toMatch(/^ {4}\w+: /m);
    expect(output.match(/dev: open /g)).toHaveLength(1);
    expect(output.match(/STAND-INS IN USE/g)).toHaveLength(1);
    expect(output).not.toContain('session proof secret');

    const family = descendants(proc.pid!);
    // Two tsx watchers, the api and the worker under them, and esbuild's service processes.
    expect(family.length).toBeGreaterThanOrEqual(4);

    proc.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]);
    expect(code, output).toBe(0);
    await until('every child to be gone', async () => (family.every((pid) => !alive(pid)) ? true : undefined), 15_000).catch(() => {
      throw new Error(`left running:\n${describeProcesses(family.filter(alive))}\n${output}`);
    });
    expect(await portOpen(port)).toBe(false);
    expect(await portOpen(standinPort)).toBe(false);
    expect(await portOpen(smtpPort)).toBe(false);
  }, 150_000);
});
