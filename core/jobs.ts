import { Queue, type ConnectionOptions } from 'bullmq';
import { z } from 'zod';
import { timerRepeatStrategy } from './timers/job-policy';

/** The api ↔ worker contract: queue names and job payloads. */
export const TIMERS_QUEUE = 'timers';
/**
 * The name of a timer's jobs (one fire each). Short, because BullMQ stores it in every timer's scheduler hash,
 * its next job's hash and the events stream, so every byte of it counts once per timer (docs/decisions/timers.md).
 */
export const RUN_TIMER_JOB = 'fire';

/**
 * Job data stays tiny: at most the timer id; everything else is read from Postgres when the job runs. A
 * scheduler's fires carry none, their scheduler id names the timer (core/timers/scheduler.ts `timerIdOfJob`);
 * jobs added by hand ("run now") carry `timerId`.
 */
export const runTimerJobSchema = z.object({ timerId: z.number().int().positive().optional() });
export type RunTimerJob = z.infer<typeof runTimerJobSchema>;

/**
 * BullMQ's events stream keeps this many entries (its default is 10,000, about 85 bytes each). Nothing here
 * reads it (no QueueEvents); a short tail is left for debugging.
 */
export const TIMERS_QUEUE_EVENT_STREAM_MAX_LEN = 1_000;

export function createTimersQueue(connection: ConnectionOptions, prefix: string): Queue<RunTimerJob> {
  return new Queue<RunTimerJob>(TIMERS_QUEUE, {
    connection,
    prefix,
    settings: { repeatStrategy: timerRepeatStrategy },
    streams: { events: { maxLen: TIMERS_QUEUE_EVENT_STREAM_MAX_LEN } },
  });
}

/** Email and webhook messages: one job per `deliveries` row, which holds everything the message says. */
export const DELIVERIES_QUEUE = 'deliveries';
export const DELIVER_JOB = 'deliver';

export const deliverJobSchema = z.object({ deliveryId: z.number().int().positive() });
export type DeliverJob = z.infer<typeof deliverJobSchema>;

export function createDeliveriesQueue(connection: ConnectionOptions, prefix: string): Queue<DeliverJob> {
  return new Queue<DeliverJob>(DELIVERIES_QUEUE, { connection, prefix });
}

/**
 * An interactive search's events, found after its reply has ended (docs/decisions/ask.md): one job per answered ask, added
 * once the answer's last byte is out. It carries the search's id; what the extraction reads (the prompt, the answer,
 * its sources and the website's facts) is kept beside the search in Postgres until its events end.
 */
export const SEARCH_EVENTS_QUEUE = 'search-events';
export const SEARCH_EVENTS_JOB = 'events';

export const searchEventsJobSchema = z.object({ searchId: z.number().int().positive() });
export type SearchEventsJob = z.infer<typeof searchEventsJobSchema>;

export function createSearchEventsQueue(connection: ConnectionOptions, prefix: string): Queue<SearchEventsJob> {
  return new Queue<SearchEventsJob>(SEARCH_EVENTS_QUEUE, {
    connection,
    prefix,
    streams: { events: { maxLen: TIMERS_QUEUE_EVENT_STREAM_MAX_LEN } },
  });
}
