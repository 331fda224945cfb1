import * as z from 'zod/mini';
import { answerCorrectionSchema } from './answer-correction';
import { WEBSITE_NOT_TEXT } from './ask';
import { SCHEDULE_TYPES, WEEKDAYS } from './schedule-values';
import { IANA_ZONE_WIRE, SCHEDULE_TYPE_WIRE, TIME_OF_DAY_WIRE, WEEKDAY_WIRE } from './schedule-wire';
import { timerDeliveryShape } from './timer-settings';
import { timerFiltersSchema } from './timer-filters';
import { checkedLater } from './wire-type';

export { SCHEDULE_TYPES, WEEKDAYS };
export type { ScheduleType, Weekday } from './schedule-values';

const TIMER_EMPTY_QUESTION = 'Please type a question for the timer to repeat.';

// The values core/timers/schedule.ts accepts, as documents show them.
const QUESTION = z.string().check(z.minLength(1), z.describe('The question the timer repeats.'));

/**
 * POST /api/schedule {scheduleType, time, weekday, ques, web, timezone}. Field types here; which values a
 * schedule allows (a real time, a weekday for weekly, a known zone) is core/timers/schedule.ts's to say.
 */
export const scheduleRequestSchema = z.object(
  {
    scheduleType: checkedLater(z.optional(z.unknown()), SCHEDULE_TYPE_WIRE, { required: true }),
    time: checkedLater(z.optional(z.unknown()), TIME_OF_DAY_WIRE, { required: true }),
    weekday: checkedLater(z.optional(z.unknown()), WEEKDAY_WIRE),
    timezone: checkedLater(z.optional(z.unknown()), IANA_ZONE_WIRE, { required: true }),
    ques: checkedLater(z.optional(z.nullable(z.string({ error: TIMER_EMPTY_QUESTION }))), QUESTION, { required: true }),
    web: z.optional(z.nullable(z.string({ error: WEBSITE_NOT_TEXT }))),
    /** Optional, beyond the spec's fields: which events the timer keeps (core/contract/timer-filters.ts). */
    filters: checkedLater(z.optional(z.unknown()), z.nullable(timerFiltersSchema)),
  },
  { error: 'The request body must be a JSON object with scheduleType, time, weekday, ques, web and timezone.' },
);
export type ScheduleRequest = z.infer<typeof scheduleRequestSchema>;
export { TIMER_EMPTY_QUESTION };

/** A timer as GET /api/timers lists it: the spec's fields, when it fires next and how its latest run went. */
export const listedTimerSchema = z.object({
  id: z.number(),
  scheduleType: z.enum(SCHEDULE_TYPES),
  time: z.string(),
  weekday: z.nullable(z.enum(WEEKDAYS)),
  ques: z.string(),
  web: z.string(),
  timezone: z.string(),
  nextRunAt: z.string(),
  lastRun: z.nullable(
    z.object({
      at: z.string(),
      status: z.string(),
      /** The latest run's answer as Gemini wrote it, or why it failed. */
      answer: z.nullable(z.string()),
      /** The dates in its answer the check of its events contradicts, as a search's `answer_corrections`. */
      answer_corrections: z._default(z.array(answerCorrectionSchema), []),
    }),
  ),
  /** The timer's calendar and Atom feed URLs (GET /api/timers only; null while feeds are off). */
  ical_url: z.optional(z.nullable(z.string())),
  atom_url: z.optional(z.nullable(z.string())),
  /** Which events the timer keeps; null keeps all (absent from older servers). */
  filters: z.optional(z.nullable(timerFiltersSchema)),
  ...timerDeliveryShape,
});
export type ListedTimer = z.infer<typeof listedTimerSchema>;

export const timersReplySchema = z.array(listedTimerSchema);

/** POST /api/timer/delete {timer_id}: an unknown id answers 404 'Timer not found', like another user's. */
export const deleteTimerRequestSchema = z.object({ timer_id: z.optional(z.unknown()) }, { error: 'Timer not found' });

/** The reply of POST /api/timer/delete: status 'success' means deleted (spec section 7). */
export const statusReplySchema = z.object({ status: z.string(), message: z.string() });
export type StatusReply = z.infer<typeof statusReplySchema>;
