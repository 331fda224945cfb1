import { type Job, UnrecoverableError } from 'bullmq';
import { type DeliverDeps, deliver } from '../../core/delivery/deliver';
import { deliverJobSchema, type DeliverJob } from '../../core/jobs';

export type { DeliverDeps };

export type DeliverOutcome = 'sent' | 'skipped' | 'already-handled';

/**
 * Processes one `deliver` job: reads the delivery's id out of the job, sends it (core/delivery/deliver.ts), and
 * turns a failure into BullMQ's terms: thrown for another attempt when it may pass, as UnrecoverableError when not.
 */
export function createDeliverProcessor(deps: DeliverDeps) {
  return async (job: Job<DeliverJob>): Promise<DeliverOutcome> => {
    const data = deliverJobSchema.safeParse(job.data);
    if (!data.success) throw new UnrecoverableError(`Job data is not {deliveryId}: ${JSON.stringify(job.data)}`);
    const attempt = job.attemptsMade + 1;
    const outcome = await deliver(deps, {
      deliveryId: data.data.deliveryId,
      attempt,
      lastAttempt: attempt >= (job.opts?.attempts ?? 1),
      jobId: job.id,
    });
    if (outcome.kind !== 'failed') return outcome.kind;
    throw outcome.retryable ? outcome.error : new UnrecoverableError(outcome.error.message);
  };
}
