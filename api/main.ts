import cluster from 'node:cluster';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createGemini, createStripe } from '../core/clients';
import { loadConfigOrExit } from '../core/config';
import { createSearchEventsQueue, createTimersQueue } from '../core/jobs';
import { emailStatusLine } from '../core/delivery/email-status';
import { createMailer } from '../core/delivery/mailer';
import { checkGeminiModel } from '../core/gemini/model';
import { createLogger } from '../core/logger';
import { standinNotice } from '../core/standin-notice';
import { createRedis } from '../core/redis/client';
import { watchRedisHealth } from '../core/redis/health';
import { closeReadingPool, readingPool } from '../core/reading/shared-pool';
import { createSql } from '../db/client';
import { watchSessionRevocations } from '../core/auth/session-revocation';
import { DEFAULT_POOL_SIZE } from '../db/client';
import { shareMetricsWithPrimary } from './cluster-metrics';
import { runApiProcesses } from './processes';
import { warmUp } from './warm-up';
import { createApp } from './app';
import type { AppDeps } from './deps';

// In-flight requests get this long to finish after SIGTERM before the process exits anyway.
const SHUTDOWN_GRACE_MS = 25_000;

async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const logger = createLogger(config.logLevel, 'api');
  if (cluster.isPrimary && config.apiProcesses > 1) {
    runApiProcesses(config.apiProcesses, logger);
    return;
  }
  if (cluster.isWorker) shareMetricsWithPrimary();
  // Kept open: the whole pool is opened at start (warmUp) so that no request pays for a connection.
  const sql = createSql(config.databaseUrl, { keepOpen: true });
  const redis = createRedis(config, 'requests');
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const queueConnection = createRedis(config, 'queue');
  queueConnection.on('error', (err) => logger.warn({ err: err.message }, 'redis (queue) error'));
  const subscriber = createRedis(config, 'queue');
  subscriber.on('error', (err) => logger.warn({ err: err.message }, 'redis (session revocations) error'));
  const health = {
    requests: watchRedisHealth(redis, 'requests', logger),
    queue: watchRedisHealth(queueConnection, 'queue', logger),
    revocations: watchRedisHealth(subscriber, 'session-revocations', logger),
  };
  const gemini = createGemini(config, logger);
  const warm = warmUp(sql, DEFAULT_POOL_SIZE, logger);
  const deps: AppDeps = {
    config,
    sql,
    redis,
    sessionRevocations: watchSessionRevocations({
      subscriber,
      health: health.revocations,
      publisher: redis,
      prefix: config.queuePrefix,
      logger,
    }),
    timersQueue: createTimersQueue(queueConnection, config.queuePrefix),
    searchEventsQueue: createSearchEventsQueue(queueConnection, config.queuePrefix),
    stripe: createStripe(config),
    mailer: createMailer(config),
    gemini,
    warmUp: warm,
    logger,
    publicDir: path.resolve(process.cwd(), 'dist/public'),
  };
  // Their connection's errors are logged above; a BullMQ queue with no listener of its own prints each again.
  for (const queue of [deps.timersQueue, deps.searchEventsQueue]) queue.on('error', () => {});
  // One cheap check (models.get) that the configured model and key work; /readyz reports what it found.
  void checkGeminiModel(deps.gemini, config.gemini);
  // Started now, so the first website read finds a reading thread warm.
  readingPool(config.reading);
  const app = createApp(deps);
  // Listens at once, whatever Postgres, Redis or Gemini are doing: /healthz answers, /readyz says what is still
  // missing, and the page's error page is served, so an orchestrator never kills a process waiting for them.
  const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
    // Several processes share the port: the first says it once for all.
    if ((cluster.worker?.id ?? 1) !== 1) return;
    logger.info({ port: info.port, standins: config.standins }, `listening on ${config.appUrl}`);
    (config.mail.url ? logger.info.bind(logger) : logger.warn.bind(logger))(emailStatusLine(config));
    const standins = standinNotice(config);
    if (standins) logger.warn(standins);
    if (!config.sessionProof)
      logger.warn('session proofs are off (SESSION_PROOF_SECONDS=0): every signed-in request looks its session up in Postgres');
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('grace period over, exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      await Promise.allSettled([
        deps.timersQueue.close(),
        deps.searchEventsQueue.close(),
        sql.end({ timeout: 5 }),
        deps.sessionRevocations.close(),
        closeReadingPool(),
      ]);
      deps.mailer?.close();
      health.requests.stop();
      health.queue.stop();
      redis.disconnect();
      queueConnection.disconnect();
      logger.info('stopped');
      process.exit(0);
    });
    // Idle keep-alive sockets would hold close() open until they time out.
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
