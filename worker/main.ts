import { Redis } from 'ioredis';
import { createGemini } from '../core/clients';
import { type Config, ConfigError, loadConfigFromProcess } from '../core/config';
import { createTimersQueue } from '../core/jobs';
import { checkGeminiModel } from '../core/search/gemini-model';
import { createLogger } from '../core/logger';
import { createSql } from '../db/client';
import { startTimersWorker, type TimersWorker } from './timers-worker';

async function main(): Promise<void> {
  let config: Config;
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
  const gemini = createGemini(config, logger);
  // One cheap check (models.get) that the configured model and key work; a problem is logged as an operator error.
  void checkGeminiModel(gemini, config.gemini);

  // Installed before any work starts, so a stop during start-up (a deploy, compose down) is graceful too: it
  // waits for the start to finish or fail, then closes whatever was opened.
  let worker: TimersWorker | null = null;
  let starting: Promise<unknown> = Promise.resolve();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: letting running jobs finish');
    await starting.catch(() => {});
    await worker?.close();
    await queue.close();
    await sql.end({ timeout: 5 });
    connection.disconnect();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  logger.info('worker starting');

  starting = startTimersWorker({ config, sql, connection, queue, gemini, logger }).then((w) => {
    worker = w;
  });
  await starting;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
