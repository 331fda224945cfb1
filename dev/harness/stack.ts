import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { createGemini, createStripe } from '../../core/clients';
import { loadConfig, type Config } from '../../core/config';
import { createMailer } from '../../core/delivery/mailer';
import { createDeliveriesQueue, createSearchEventsQueue, createTimersQueue, type DeliverJob } from '../../core/jobs';
import { createLogger } from '../../core/logger';
import { createRedis, type RedisClient } from '../../core/redis/client';
import { watchSessionRevocations } from '../../core/auth/session-revocation';
import { watchRedisHealth } from '../../core/redis/health';
import type { Standins } from '../standins/server';
import { startDeliveriesWorker, type DeliveriesWorker } from '../../worker/deliveries-worker';
import { startSearchEventsWorker, type SearchEventsWorker } from '../../worker/search-events-worker';
import { startTimersWorker, type TimersWorker } from '../../worker/timers-worker';
import type { Queue } from 'bullmq';
import { createTestDatabase, type TestDatabase } from './db';
import { startTestStandins, testBaseEnv } from './base-env';
import { deletePrefix, testQueuePrefix } from './redis';

export interface TestStack {
  /** The app's origin, e.g. http://127.0.0.1:41234 */
  url: string;
  config: Config;
  deps: AppDeps;
  db: TestDatabase;
  standins: Standins;
  redis: RedisClient;
  worker: TimersWorker | null;
  /** Starts the timers worker in this process (same config, queue prefix and database). */
  startWorker: () => Promise<TimersWorker>;
  /** The `deliveries` queue (emails, webhooks) and its worker, started on demand. */
  deliveriesQueue: Queue<DeliverJob>;
  deliveries: DeliveriesWorker | null;
  startDeliveries: () => Promise<DeliveriesWorker>;
  /** The worker that finds an ask's events after its reply; started with the stack unless `searchEvents: false`. */
  searchEvents: SearchEventsWorker | null;
  startSearchEvents: () => Promise<SearchEventsWorker>;
  close: () => Promise<void>;
}

export interface StackOptions {
  /** Extra environment, as a deployment would set it (e.g. ADMIN_USER). */
  env?: Record<string, string>;
  worker?: boolean;
  /** Whether the search-events worker starts with the stack (as `make dev` and compose run one); default true. */
  searchEvents?: boolean;
}

/**
 * The real product in-process: its own database and queue prefix, the local stand-ins on a free port, and
 * the app listening on another, configured exactly as `make dev` configures it.
 */
export async function startTestStack(options: StackOptions = {}): Promise<TestStack> {
  const db = await createTestDatabase();
  const prefix = testQueuePrefix();
  let handler: AppDeps | null = null;
  let fetchApp: ((req: Request, env: unknown) => Response | Promise<Response>) | null = null;
  // The env carries the Node request, as in production (api/main.ts), so getConnInfo sees the client address.
  const server = createAdaptorServer({ fetch: (req: Request, env: unknown) => fetchApp!(req, env) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const standins = await startTestStandins(url);
  const config = loadConfig({
    ...testBaseEnv({ appUrl: url, databaseUrl: db.url, queuePrefix: prefix, standins }),
    ...options.env,
  });
  const logger = createLogger(config.logLevel, 'test');
  // Made as api/main.ts makes them (a Cluster when the env names one), but all patient: a test waits for Redis.
  const redis = createRedis(config, 'queue');
  const queueConnection = createRedis(config, 'queue');
  const subscriber = createRedis(config, 'queue');
  const deps: AppDeps = {
    config,
    sql: db.sql,
    redis,
    sessionRevocations: watchSessionRevocations({
      subscriber,
      health: watchRedisHealth(subscriber, 'session-revocations', logger),
      publisher: redis,
      prefix,
      logger,
    }),
    timersQueue: createTimersQueue(queueConnection, prefix),
    searchEventsQueue: createSearchEventsQueue(queueConnection, prefix),
    stripe: createStripe(config),
    mailer: createMailer(config),
    gemini: createGemini(config, logger),
    logger,
    publicDir: path.resolve('dist/public'),
  };
  handler = deps;
  await deps.sessionRevocations.whenLive();
  const app = createApp(handler);
  fetchApp = (req, env) => app.fetch(req, env as object);

  const workerConnection = createRedis(config, 'queue');
  const deliveriesQueue = createDeliveriesQueue(queueConnection, prefix);
  const stack: TestStack = {
    url,
    config,
    deps,
    db,
    standins,
    redis,
    worker: null,
    startWorker: async () => {
      stack.worker = await startTimersWorker({
        config,
        sql: db.sql,
        connection: workerConnection,
        queue: deps.timersQueue,
        gemini: deps.gemini,
        logger,
      });
      // Its start pass runs beside the jobs; a test sees the worker once that pass is done.
      await stack.worker.startPass;
      return stack.worker;
    },
    deliveriesQueue,
    deliveries: null,
    startDeliveries: async () => {
      stack.deliveries = await startDeliveriesWorker({
        config,
        sql: db.sql,
        connection: workerConnection,
        queue: deliveriesQueue,
        logger,
        mailer: createMailer(config),
        sweepEveryMs: 0,
      });
      return stack.deliveries;
    },
    searchEvents: null,
    startSearchEvents: async () => {
      stack.searchEvents = await startSearchEventsWorker({
        config,
        sql: db.sql,
        connection: workerConnection,
        gemini: deps.gemini,
        logger,
      });
      return stack.searchEvents;
    },
    close: async () => {
      await stack.searchEvents?.close();
      await stack.worker?.close();
      await stack.deliveries?.close();
      await deliveriesQueue.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await standins.close();
      await deps.timersQueue.close();
      await deps.sessionRevocations.close();
      await deps.searchEventsQueue.close();
      deps.mailer?.close();
      await deletePrefix(redis, prefix);
      redis.disconnect();
      queueConnection.disconnect();
      workerConnection.disconnect();
      await db.drop();
    },
  };
  if (options.worker) await stack.startWorker();
  if (options.searchEvents !== false) await stack.startSearchEvents();
  return stack;
}
