import { createGemini } from '../core/clients';
import { ConfigError, loadConfigFromProcess } from '../core/config';
import { createTimersQueue } from '../core/jobs';
import { createLogger } from '../core/logger';
import { createRedis } from '../core/redis';
import { createSql } from '../db/client';
import { startMetricsServer } from './metrics-server';
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
  const connection = createRedis(config, 'queue');
  connection.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const queue = createTimersQueue(connection, config.queuePrefix);
  const worker = await startTimersWorker({ config, sql, connection, queue, gemini: createGemini(config), logger });
  // Started once the worker takes jobs, so its /healthz also says the worker is ready. Config ensures admin is set.
  const metrics =
    config.worker.metricsPort !== null && config.admin ? await startMetricsServer(config.worker.metricsPort, config.admin) : null;
  if (metrics) logger.info({ port: metrics.port }, 'metrics server listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: letting running jobs finish');
    await worker.close();
    await metrics?.close();
    await queue.close();
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
