import type { Queue } from 'bullmq';
import type { Sql } from '../../db/client';
import { listStalePendingDeliveries, recoverStuckDeliveries } from '../../db/deliveries';
import type { DeliverJob } from '../jobs';
import type { Logger } from '../logger';
import { DELIVERY_BACKOFF_MS, enqueueDelivery } from './queue';

/** Deliveries still pending this long after they were recorded have lost their job (Redis was away). */
const STALE_PENDING_MS = 10 * 60_000;
/**
 * Deliveries 'sending' this long were left by a worker that stopped mid-send: one attempt takes at most about
 * a minute (SMTP's connection and socket limits, the webhook's 10 s).
 */
export const STUCK_SENDING_MS = 15 * 60_000;
const STUCK_MESSAGE = 'The worker stopped while sending this; it is sent again (with the same id, so it can be told apart).';

/** Re-enqueues deliveries recorded but never picked up, and those left sending by a stopped worker; returns how many. */
export async function sweepDeliveries(deps: { sql: Sql; queue: Queue<DeliverJob>; logger: Logger }): Promise<number> {
  const { sql, queue, logger } = deps;
  const ids = await listStalePendingDeliveries(sql, new Date(Date.now() - STALE_PENDING_MS));
  // The job id is the row's: a job that is in fact still waiting is not added twice.
  for (const id of ids) await enqueueDelivery(queue, id, DELIVERY_BACKOFF_MS);
  if (ids.length) logger.warn({ count: ids.length }, 're-enqueued deliveries whose job was lost');
  // Their job has ended (the claim found them 'sending'), so each gets a job of its own.
  const stuck = await recoverStuckDeliveries(sql, new Date(Date.now() - STUCK_SENDING_MS), STUCK_MESSAGE);
  for (const id of stuck) await enqueueDelivery(queue, id, DELIVERY_BACKOFF_MS, `recovered-${Date.now()}`);
  if (stuck.length) logger.warn({ count: stuck.length }, 'recovered deliveries left sending by a stopped worker');
  return ids.length + stuck.length;
}
