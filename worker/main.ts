import { Redis } from 'ioredis';
import { createGemini } from '../core/clients';
import { ConfigError, loadConfigFromProcess } from '../core/config';
import { emailStatusLine } from '../core/delivery/email-status';
import { createMailer } from '../core/delivery/mailer';
import { createDeliveriesQueue, createTimersQueue } from '../core/jobs';
import { createLogger } from '../core/logger';
import { createSql } from '../db/client';
import { startDeliveriesWorker } from './deliveries-worker';
import { startTimersWorker } from './timers-worker';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfigFromProcess();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel, 'worker');
  const sql = createSql(config.databaseUrl);
  // BullMQ workers block on Redis; a per-request retry limit would make them fail instead of wait.
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const queue = createTimersQueue(connection, config.queuePrefix);
  const worker = await startTimersWorker({ config, sql, connection, queue, gemini: createGemini(config), logger });
  // Emails and webhooks: their own queue and worker, so a slow mail server never holds a timer run.
  const mailer = createMailer(config);
  (mailer ? logger.info.bind(logger) : logger.warn.bind(logger))(emailStatusLine(config));
  const deliveriesQueue = createDeliveriesQueue(connection, config.queuePrefix);
  const deliveries = await startDeliveriesWorker({ config, sql, connection, queue: deliveriesQueue, logger, mailer });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: letting running jobs finish');
    await Promise.all([worker.close(), deliveries.close()]);
    await Promise.all([queue.close(), deliveriesQueue.close()]);
    await sql.end({ timeout: 5 });
    connection.disconnect();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
