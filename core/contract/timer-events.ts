import * as z from 'zod/mini';
import { eventSchema } from './event';

/** One event a timer's run found new or changed, with the run that found it. */
export const timerEventSchema = z.object({
  ...eventSchema.shape,
  /** True when the event was seen before and has moved or been cancelled since. */
  changed: z.boolean(),
  run_id: z.number(),
});
export type TimerEventReply = z.infer<typeof timerEventSchema>;

/**
 * GET /v1/timers/:id/events?since=<cursor>: what the timer's runs found new or changed after the cursor, oldest
 * first. Ask again with `cursor` as `since` to get only what came after; `has_more` says a page was full.
 */
export const timerEventsReplySchema = z.object({
  events: z.array(timerEventSchema),
  cursor: z.string(),
  has_more: z.boolean(),
});
export type TimerEventsReply = z.infer<typeof timerEventsReplySchema>;
