import path from 'node:path';
import { loadConfig } from '../../core/config';
import { answers } from './answers';
import { startOwnPostgres } from './own-postgres';
import { startOwnRedis } from './own-redis';
import type { OwnServer } from './server-process';
import { serverStateDir, serviceUser } from './service-user';

export interface LocalServicesOptions {
  /** The environment as configured (with .env read): a set DATABASE_URL or REDIS_URL is used as it is. */
  env: Record<string, string | undefined>;
  /** The checkout's git-ignored state folder (.dev-state). */
  stateDir: string;
  /** Whose servers: `make dev` keeps its data between runs; the tests' are apart from it and keep none. */
  purpose: 'dev' | 'test' | 'unit';
  /** Redis alone (the unit tests use no Postgres). */
  redisOnly?: boolean;
  /** Where the default servers are looked for (the defaults of DATABASE_URL and REDIS_URL). */
  defaults?: { postgres: string; redis: string };
  log?: (line: string) => void;
  /** Where Postgres's files go when its user cannot enter the checkout (default /var/lib/eventfinder-dev). */
  unreachableCheckoutsRoot?: string;
}

export interface LocalServices {
  /** DATABASE_URL and REDIS_URL for what runs next: only the ones this decided (never a set one). */
  env: { DATABASE_URL?: string; REDIS_URL?: string };
  /** Stops what was started here, Redis and Postgres; nothing when everything was already there. */
  stop: () => Promise<void>;
}

const hostPort = (url: string) => {
  const u = new URL(url);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port) };
};

/** A folder as a person here types it: relative inside the current folder, else absolute. */
const relative = (dir: string) => {
  const rel = path.relative(process.cwd(), dir);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(dir);
};

/** "started X on …", or, for one another command of this checkout started and still runs, "using X (pid) on …". */
const what = (server: OwnServer & { source: string }) =>
  server.reusedPid
    ? `using ${server.source} (pid ${server.reusedPid}, started by another command of this checkout)`
    : `started ${server.source}`;

/**
 * Postgres and Redis for `make dev`, `make migrate`, `make bench` and the tests: a set DATABASE_URL or REDIS_URL
 * is used; else the server at the default address when it answers; else one of this checkout's own, started here
 * on a free loopback port with its data under `stateDir`, and stopped by `stop()`.
 */
export async function startLocalServices(options: LocalServicesOptions): Promise<LocalServices> {
  const log = options.log ?? ((line: string) => console.log(line));
  const defaults =
    options.defaults ??
    (() => {
      const config = loadConfig({});
      return { postgres: config.databaseUrl, redis: config.redisUrl };
    })();
  const started: OwnServer[] = [];
  const env: LocalServices['env'] = {};
  const stop = async () => {
    for (const server of started.splice(0).reverse()) await server.stop();
  };
  const prefix = options.purpose === 'dev' ? '' : `${options.purpose}-`;
  const keeps = (dataDir: string) => `data in ${relative(dataDir)}, to start empty stop this and delete that folder`;

  // Each says in one line what it found or started.
  const postgres = async (): Promise<string | null> => {
    if (options.env.DATABASE_URL || options.redisOnly) return null;
    const at = hostPort(defaults.postgres);
    if (await answers(at.host, at.port)) return `services: using the PostgreSQL at ${at.host}:${at.port} (DATABASE_URL is not set)`;
    const user = serviceUser();
    const dataDir = path.join(serverStateDir(options.stateDir, user, options.unreachableCheckoutsRoot), `${prefix}postgres`);
    const pg = await startOwnPostgres({ dataDir, user });
    started.push(pg);
    const url = new URL(defaults.postgres);
    url.host = `127.0.0.1:${pg.port}`;
    env.DATABASE_URL = url.toString();
    return `services: nothing answers at ${at.host}:${at.port}, so ${what(pg)} on 127.0.0.1:${pg.port}${user ? ` as the ${user.name} user` : ''}; ${keeps(dataDir)}`;
  };
  const redis = async (): Promise<string | null> => {
    if (options.env.REDIS_URL || options.env.REDIS_CLUSTER_NODES) return null;
    const at = hostPort(defaults.redis);
    if (await answers(at.host, at.port)) return `services: using the Redis at ${at.host}:${at.port} (REDIS_URL is not set)`;
    const dataDir = path.join(options.stateDir, `${prefix}redis`);
    const server = await startOwnRedis({ dataDir, persist: options.purpose === 'dev' });
    started.push(server);
    env.REDIS_URL = server.url;
    return `services: nothing answers at ${at.host}:${at.port}, so ${what(server)} on 127.0.0.1:${server.port}; ${options.purpose === 'dev' ? keeps(dataDir) : 'it keeps no data'}`;
  };
  // Started side by side (each waits on its own server), said in a fixed order.
  const results = await Promise.allSettled([postgres(), redis()]);
  for (const result of results) if (result.status === 'fulfilled' && result.value) log(result.value);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { env, stop };
}
