import { Worker, type Queue } from 'bullmq';
import type { Config } from '../core/config';
import type { Mailer } from '../core/delivery/mailer';
import { deliveryBackoffStrategy } from '../core/delivery/queue';
import { sweepDeliveries } from '../core/delivery/sweep';
import { DELIVERIES_QUEUE, type DeliverJob } from '../core/jobs';
import type { Logger } from '../core/logger';
import type { RedisClient } from '../core/redis/client';
import type { Sql } from '../db/client';
import { createDeliverProcessor, type DeliverDeps } from './jobs/deliver';
import { every } from './every';

const SWEEP_EVERY_MS = 5 * 60_000;
const CONCURRENCY = 4;

export interface DeliveriesWorkerDeps {
  config: Config;
  sql: Sql;
  connection: RedisClient;
  queue: Queue<DeliverJob>;
  logger: Logger;
  mailer: Mailer | null;
  resolve?: DeliverDeps['resolve'];
  /** 0 turns the periodic re-enqueue sweep off (it still runs once at start). */
  sweepEveryMs?: number;
}

export interface DeliveriesWorker {
  worker: Worker<DeliverJob>;
  /** Re-enqueues deliveries recorded but never picked up, and those left sending by a stopped worker; returns how many. */
  sweep: () => Promise<number>;
  close: (force?: boolean) => Promise<void>;
}

/** Starts the BullMQ worker of the `deliveries` queue (emails and webhooks), apart from the timer runs. */
export async function startDeliveriesWorker(deps: DeliveriesWorkerDeps): Promise<DeliveriesWorker> {
  const { config, connection, logger, queue, sql } = deps;
  // Deliveries recorded but never picked up, or left sending by a stopped worker (core/delivery/sweep.ts).
  const sweep = () => sweepDeliveries({ sql, queue, logger });
  await sweep();

  const worker = new Worker<DeliverJob>(DELIVERIES_QUEUE, createDeliverProcessor(deps), {
    connection,
    prefix: config.queuePrefix,
    concurrency: CONCURRENCY,
    settings: { backoffStrategy: deliveryBackoffStrategy },
  });
  worker.on('failed', (job, err) => logger.warn({ jobId: job?.id, err: err.message }, 'delivery job failed'));
  worker.on('error', (err) => logger.error({ err: err.message }, 'deliveries worker error'));
  await worker.waitUntilReady();

  const stopSweeping = every(deps.sweepEveryMs ?? SWEEP_EVERY_MS, sweep, logger, 'deliveries sweep');

  logger.info({ email: deps.mailer ? 'on' : 'off' }, 'deliveries worker ready');
  return {
    worker,
    sweep,
    close: async (force = false) => {
      stopSweeping();
      await worker.close(force);
      deps.mailer?.close();
    },
  };
}
