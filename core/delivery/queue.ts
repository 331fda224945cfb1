import type { Job, Queue } from 'bullmq';
import { DELIVER_JOB, type DeliverJob } from '../jobs';
import { DeliveryError } from './errors';

/**
 * Sending is retried on transient failures for hours, not minutes (docs/decisions/delivery.md): 10 attempts, exponential
 * backoff from 30 s (30 s, 1, 2, 4 … 128 minutes between them: about 4 hours 15 minutes in all), so an SMTP
 * server or a receiver that is down for an afternoon still gets the message once it is back.
 */
export const DELIVERY_ATTEMPTS = 10;
export const DELIVERY_BACKOFF_MS = 30_000;

/** The backoff type of delivery jobs; its delays are the deliveries worker's (`deliveryBackoffStrategy`). */
export const DELIVERY_BACKOFF = 'delivery';

/**
 * The deliveries worker's backoff: BullMQ's exponential delays from the job's `delay` (2^(attempt-1) × delay),
 * or longer when the receiver asked for a longer wait (a 429's Retry-After, Discord's `retry_after`): a retry
 * before that wait would be refused again. Jobs queued before this type keep BullMQ's own `exponential`.
 */
export function deliveryBackoffStrategy(attemptsMade: number, type?: string, err?: Error, job?: Pick<Job, 'opts'>): number {
  if (type !== DELIVERY_BACKOFF) throw new Error(`Unknown backoff type ${type}; delivery jobs use '${DELIVERY_BACKOFF}'.`);
  const backoff = job?.opts.backoff;
  const delay = typeof backoff === 'object' && typeof backoff.delay === 'number' ? backoff.delay : DELIVERY_BACKOFF_MS;
  const exponential = Math.round(2 ** (attemptsMade - 1) * delay);
  const asked = err instanceof DeliveryError && err.retryAfterMs !== null ? err.retryAfterMs : 0;
  return Math.max(exponential, asked);
}

/**
 * The BullMQ job id of a delivery: one job per deliveries row, so enqueueing it twice adds nothing while it
 * waits. A recovered delivery (its worker died mid-send) gets a job of its own, `again` naming the recovery.
 */
export function deliveryJobId(deliveryId: number, again?: string): string {
  return again ? `delivery-${deliveryId}-${again}` : `delivery-${deliveryId}`;
}

export async function enqueueDelivery(
  queue: Queue<DeliverJob>,
  deliveryId: number,
  backoffMs = DELIVERY_BACKOFF_MS,
  again?: string,
): Promise<void> {
  await queue.add(
    DELIVER_JOB,
    { deliveryId },
    {
      jobId: deliveryJobId(deliveryId, again),
      attempts: DELIVERY_ATTEMPTS,
      backoff: { type: DELIVERY_BACKOFF, delay: backoffMs },
      // The deliveries table is the record; BullMQ keeps finished jobs only briefly, for Bull Board.
      removeOnComplete: { age: 24 * 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
    },
  );
}
