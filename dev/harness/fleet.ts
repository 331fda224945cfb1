import type { Queue } from 'bullmq';
import { createTimersQueue, type RunTimerJob } from '../../core/jobs';
import { loadConfig } from '../../core/config';
import { createRedis, type RedisClient } from '../../core/redis/client';
import type { Standins } from '../standins/server';
import { startTestStandins, testBaseEnv } from './base-env';
import { createTestDatabase, type TestDatabase } from './db';
import { freePort, startChild, type ChildServer } from './processes';
import { deletePrefix, testQueuePrefix } from './redis';
import { until } from './wait';

export const FLEET_ADMIN = { user: 'ops', password: 'fleet-metrics' };

export interface Fleet {
  /** APP_URL of every api (as behind one load balancer); requests to any api carry it as Origin. */
  appUrl: string;
  apis: ChildServer[];
  /** Each worker's metrics server (`/metrics` behind FLEET_ADMIN, `/healthz`). */
  workers: ChildServer[];
  db: TestDatabase;
  standins: Standins;
  prefix: string;
  env: Record<string, string>;
  /** This process's own view of the timers queue, for adding and inspecting jobs. */
  queue: Queue<RunTimerJob>;
  redis: RedisClient;
  /** Starts one more worker process with the fleet's environment. */
  addWorker: () => Promise<ChildServer>;
  stopWorkers: () => Promise<void>;
  close: () => Promise<void>;
}

export interface FleetOptions {
  apis: number;
  workers: number;
  env?: Record<string, string>;
  /** `source` runs api/main.ts and worker/main.ts through tsx; `dist` the built bundles (make build). */
  from?: 'source' | 'dist';
}

/**
 * Real api and worker processes side by side, as a deployment runs them: one database, one Redis and queue
 * prefix, the local stand-ins in this process.
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const db = await createTestDatabase();
  const prefix = testQueuePrefix();
  const apiPorts = await Promise.all(Array.from({ length: options.apis }, () => freePort()));
  const appUrl = `http://127.0.0.1:${apiPorts[0] ?? (await freePort())}`;
  const standins = await startTestStandins(appUrl);
  const env: Record<string, string> = {
    ...testBaseEnv({ appUrl, databaseUrl: db.url, queuePrefix: prefix, standins }),
    ADMIN_USER: FLEET_ADMIN.user,
    ADMIN_PASSWORD: FLEET_ADMIN.password,
    // Not silent: the children's stderr reaches the test output, so a failing process's warnings say why.
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const entry = (name: 'api' | 'worker') => (options.from === 'dist' ? [`dist/server/${name}.js`] : ['--import', 'tsx', `${name}/main.ts`]);
  const config = loadConfig(env);
  const redis = createRedis(config, 'queue');
  const queue = createTimersQueue(redis, prefix);
  const apis: ChildServer[] = [];
  const workers: ChildServer[] = [];
  const addWorker = async () => {
    const worker = await startChild(entry('worker'), env, { portVar: 'WORKER_METRICS_PORT' });
    workers.push(worker);
    return worker;
  };
  const stopWorkers = async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  };
  const close = async () => {
    await Promise.all([...apis, ...workers].map((p) => p.stop()));
    await standins.close();
    await queue.close();
    await deletePrefix(redis, prefix);
    redis.disconnect();
    await db.drop();
  };
  try {
    // One after another: started together they only compete for the same CPU while loading.
    for (const port of apiPorts) apis.push(await startChild(entry('api'), env, { port }));
    for (let i = 0; i < options.workers; i++) await addWorker();
  } catch (err) {
    await close();
    throw err;
  }
  return { appUrl, apis, workers, db, standins, prefix, env, queue, redis, addWorker, stopWorkers, close };
}

/** One sample of a Prometheus text body (`name{labels}`), 0 when the series does not exist. */
export function metricSample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

export async function scrape(server: ChildServer): Promise<string> {
  const auth = Buffer.from(`${FLEET_ADMIN.user}:${FLEET_ADMIN.password}`).toString('base64');
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Basic ${auth}` } });
  if (!res.ok) throw new Error(`${server.url}/metrics answered ${res.status}`);
  return res.text();
}

/** Waits until every api process of the fleet is subscribed to session revocations: from then on each trusts the proofs it remembers. */
export async function untilApisHearRevocations(fleet: Fleet): Promise<void> {
  const channel = `${fleet.prefix}:session-revocations`;
  await until('every api process to hear revocations', async () => {
    const [, count] = (await fleet.redis.pubsub('NUMSUB', channel)) as [string, number];
    return Number(count) === fleet.apis.length;
  });
}
