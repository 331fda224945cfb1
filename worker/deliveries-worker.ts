import { Worker, type Queue } from 'bullmq';
import type { Config } from '../core/config';
import type { Mailer } from '../core/delivery/mailer';
import { DELIVERY_BACKOFF_MS, enqueueDelivery } from '../core/delivery/queue';
import { DELIVERIES_QUEUE, type DeliverJob } from '../core/jobs';
import type { Logger } from '../core/logger';
import type { RedisClient } from '../core/redis/client';
import type { Sql } from '../db/client';
import { listStalePendingDeliveries, recoverStuckDeliveries } from '../db/deliveries';
import { createDeliverProcessor, type DeliverDeps } from './jobs/deliver';
import { every } from './every';

/** Deliveries still pending this long after they were recorded have lost their job (Redis was away). */
const STALE_PENDING_MS = 10 * 60_000;
/**
 * Deliveries 'sending' this long were left by a worker that stopped mid-send: one attempt takes at most about
 * a minute (SMTP's connection and socket limits, the webhook's 10 s).
 */
export const STUCK_SENDING_MS = 15 * 60_000;
const STUCK_MESSAGE = 'The worker stopped while sending this; it is sent again (with the same id, so it can be told apart).';
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
  const sweep = async () => {
    const ids = await listStalePendingDeliveries(sql, new Date(Date.now() - STALE_PENDING_MS));
    // The job id is the row's: a job that is in fact still waiting is not added twice.
    for (const id of ids) await enqueueDelivery(queue, id, DELIVERY_BACKOFF_MS);
    if (ids.length) logger.warn({ count: ids.length }, 're-enqueued deliveries whose job was lost');
    // Their job has ended (the claim found them 'sending'), so each gets a job of its own.
    const stuck = await recoverStuckDeliveries(sql, new Date(Date.now() - STUCK_SENDING_MS), STUCK_MESSAGE);
    for (const id of stuck) await enqueueDelivery(queue, id, DELIVERY_BACKOFF_MS, `recovered-${Date.now()}`);
    if (stuck.length) logger.warn({ count: stuck.length }, 'recovered deliveries left sending by a stopped worker');
    return ids.length + stuck.length;
  };
  await sweep();

  const worker = new Worker<DeliverJob>(DELIVERIES_QUEUE, createDeliverProcessor(deps), {
    connection,
    prefix: config.queuePrefix,
    concurrency: CONCURRENCY,
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
