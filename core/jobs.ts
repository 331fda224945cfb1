import { Queue, type ConnectionOptions } from 'bullmq';
import { z } from 'zod';
import { timerRepeatStrategy } from './timer-job-policy';

/** The api ↔ worker contract: queue names and job payloads. */
export const TIMERS_QUEUE = 'timers';
export const RUN_TIMER_JOB = 'run-timer';

/** Job data stays tiny: the timer id; everything else is read from Postgres when the job runs. */
export const runTimerJobSchema = z.object({ timerId: z.number().int().positive() });
export type RunTimerJob = z.infer<typeof runTimerJobSchema>;

export function createTimersQueue(connection: ConnectionOptions, prefix: string): Queue<RunTimerJob> {
  return new Queue<RunTimerJob>(TIMERS_QUEUE, { connection, prefix, settings: { repeatStrategy: timerRepeatStrategy } });
}

/** Email and webhook messages: one job per `deliveries` row, which holds everything the message says. */
export const DELIVERIES_QUEUE = 'deliveries';
export const DELIVER_JOB = 'deliver';

export const deliverJobSchema = z.object({ deliveryId: z.number().int().positive() });
export type DeliverJob = z.infer<typeof deliverJobSchema>;

export function createDeliveriesQueue(connection: ConnectionOptions, prefix: string): Queue<DeliverJob> {
  return new Queue<DeliverJob>(DELIVERIES_QUEUE, { connection, prefix });
}
