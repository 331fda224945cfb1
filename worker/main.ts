import { createGemini } from '../core/clients';
import { loadConfigOrExit } from '../core/config';
import { createMailer } from '../core/delivery/mailer';
import { createDeliveriesQueue, createTimersQueue } from '../core/jobs';
import { createLogger } from '../core/logger';
import { createRedis } from '../core/redis/client';
import { watchRedisHealth } from '../core/redis/health';
import { closeReadingPool, readingPool } from '../core/reading/shared-pool';
import { createSql } from '../db/client';
import { type DeliveriesWorker, startDeliveriesWorker } from './deliveries-worker';
import { startMetricsServer } from './metrics-server';
import { type SearchEventsWorker, startSearchEventsWorker } from './search-events-worker';
import { startTimersWorker, type TimersWorker } from './timers-worker';

// Running timer runs get this long to finish after SIGTERM. Past it the process exits anyway, and BullMQ hands
// an unfinished run to another worker once its lock expires (compose.yaml's stop_grace_period is longer).
const SHUTDOWN_GRACE_MS = 60_000;

async function main(): Promise<void> {
  const config = loadConfigOrExit('worker');
  const logger = createLogger(config.logLevel, 'worker');
  const sql = createSql(config.databaseUrl, { max: config.worker.databasePool });
  // BullMQ workers block on Redis; a per-request retry limit would make them fail instead of wait.
  const connection = createRedis(config, 'queue');
  connection.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const health = watchRedisHealth(connection, 'queue', logger);
  const queue = createTimersQueue(connection, config.queuePrefix);
  const deliveriesQueue = createDeliveriesQueue(connection, config.queuePrefix);
  // What the whole deployment runs on (stand-ins in use, where email goes, whether the Gemini model answers) is the
  // api's to say at start, once; the worker says only what is its own (its workers ready, email on or off).
  const mailer = createMailer(config);
  const gemini = createGemini(config, logger);
  // Started now, so the first website read finds a reading thread warm.
  readingPool(config.reading);

  // Installed before any work starts, so a stop during start-up (a deploy, compose down) is graceful too: it
  // waits for the start to finish or fail, then closes whatever was opened.
  let worker: TimersWorker | null = null;
  let deliveries: DeliveriesWorker | null = null;
  let searchEvents: SearchEventsWorker | null = null;
  let metrics: Awaited<ReturnType<typeof startMetricsServer>> | null = null;
  let starting: Promise<unknown> = Promise.resolve();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: letting running jobs finish');
    const force = setTimeout(() => {
      logger.warn('grace period over, exiting with timer runs unfinished');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await starting.catch(() => {});
    await Promise.all([worker?.close(), deliveries?.close(), searchEvents?.close()]);
    await metrics?.close();
    await Promise.all([queue.close(), deliveriesQueue.close()]);
    await Promise.all([sql.end({ timeout: 5 }), closeReadingPool()]);
    health.stop();
    connection.disconnect();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  logger.info('worker starting');

  starting = (async () => {
    worker = await startTimersWorker({ config, sql, connection, queue, gemini, logger });
    // Emails and webhooks: their own queue and worker, so a slow mail server never holds a timer run.
    deliveries = await startDeliveriesWorker({ config, sql, connection, queue: deliveriesQueue, logger, mailer });
    // An ask's events, found after its reply has ended (docs/decisions/ask.md): apart, so a long timer run never holds them.
    searchEvents = await startSearchEventsWorker({ config, sql, connection, gemini, logger, redis: connection });
    // Started once the worker takes jobs, so its /healthz also says the worker is ready. Config ensures admin is set.
    if (config.worker.metricsPort !== null && config.admin) {
      metrics = await startMetricsServer(config.worker.metricsPort, config.admin);
      logger.info({ port: metrics.port }, 'metrics server listening');
    }
  })();
  await starting;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
