import { createGemini } from '../../core/clients';
import { loadConfigOrExit } from '../../core/config';
import { createTimersQueue } from '../../core/jobs';
import { createLogger } from '../../core/logger';
import { createRedis } from '../../core/redis/client';
import { createSql } from '../../db/client';
import { startTimersWorker } from '../../worker/timers-worker';

/**
 * A timers worker in a process of its own, configured from the environment as worker/main.ts is, for tests that
 * end it the hard way (kill -9). Its BullMQ lock and stalled-check timings (ms) come as arguments: with BullMQ's
 * 30 s each, a crash test would wait minutes for a dead worker's job to be found stalled. Says `ready` on stdout
 * once it takes jobs and its start pass is done.
 */
async function main(): Promise<void> {
  const [lockDuration, stalledInterval] = process.argv.slice(2).map(Number);
  const config = loadConfigOrExit('worker');
  const logger = createLogger(config.logLevel, 'worker');
  const connection = createRedis(config, 'queue');
  const worker = await startTimersWorker({
    config,
    sql: createSql(config.databaseUrl, { max: config.worker.databasePool }),
    connection,
    queue: createTimersQueue(connection, config.queuePrefix),
    gemini: createGemini(config, logger),
    logger,
    reconcileEveryMs: 0,
    ...(lockDuration ? { lockDuration } : {}),
    ...(stalledInterval ? { stalledInterval } : {}),
  });
  await worker.startPass;
  process.stdout.write('ready\n');
}

void main();
