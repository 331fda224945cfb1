import type { Queue } from 'bullmq';
import { DELIVER_JOB, type DeliverJob } from '../jobs';

/** Sending is retried on transient failures: 6 attempts, exponential backoff from 30 s (about 16 minutes in all). */
export const DELIVERY_ATTEMPTS = 6;
export const DELIVERY_BACKOFF_MS = 30_000;

/** The BullMQ job id of a delivery: one job per deliveries row, so enqueueing it twice adds nothing while it waits. */
export function deliveryJobId(deliveryId: number): string {
  return `delivery-${deliveryId}`;
}

export async function enqueueDelivery(queue: Queue<DeliverJob>, deliveryId: number, backoffMs = DELIVERY_BACKOFF_MS): Promise<void> {
  await queue.add(
    DELIVER_JOB,
    { deliveryId },
    {
      jobId: deliveryJobId(deliveryId),
      attempts: DELIVERY_ATTEMPTS,
      backoff: { type: 'exponential', delay: backoffMs },
      // The deliveries table is the record; BullMQ keeps finished jobs only briefly, for Bull Board.
      removeOnComplete: { age: 24 * 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
    },
  );
}
