import * as z from 'zod/mini';
import { SCHEDULE_TYPES, WEEKDAYS } from './schedule-values';
import { CHANNEL_KIND_WIRE } from './channel-kinds';
import { timerFiltersSchema } from './timer-filters';

export const SENTENCE_MAX = 500;

/** POST /api/timers/describe {sentence, timezone}: a timer described in words, for the page to show filled in. */
export const describeRequestSchema = z.object(
  {
    sentence: z
      .string({ error: 'Describe the timer in a sentence, e.g. "every Friday at 8 am, AI meetups in Berlin".' })
      .check(
        z.trim(),
        z.minLength(1, 'Describe the timer in a sentence, e.g. "every Friday at 8 am, AI meetups in Berlin".'),
        z.maxLength(SENTENCE_MAX, `Keep the description under ${SENTENCE_MAX} characters.`),
      ),
    timezone: z.optional(z.string()),
  },
  { error: 'The request body must be a JSON object with sentence and timezone.' },
);
export type DescribeRequest = z.infer<typeof describeRequestSchema>;

/**
 * The timer a sentence describes, as the Set Timer form and the search form hold it: nothing is saved until
 * the person checks it and presses Save Timer. `time` is HH:MM (24 h), null when the sentence named none;
 * `weekday` is set only for weekly timers.
 */
export const describedTimerSchema = z.object({
  scheduleType: z.enum(SCHEDULE_TYPES),
  time: z.nullable(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/))),
  weekday: z.nullable(z.enum(WEEKDAYS)),
  ques: z.string(),
  web: z.string(),
  filters: timerFiltersSchema,
});
export type DescribedTimer = z.output<typeof describedTimerSchema>;

/**
 * The reply: the timer, what was not understood or was filled in by default (`notes`, sentences to show),
 * and whether the deterministic parser or the model read it. A sentence that asks for what a timer cannot do
 * ("twice a week") answers 400 with a sentence saying so.
 */
export const describeReplySchema = z.object({
  timer: describedTimerSchema,
  notes: z.array(z.string()),
  source: z.enum(['parser', 'model']),
  /**
   * The channel the sentence asked to post to ("… and post it to Slack"): only its service; the form asks for
   * its address (POST /v1/timers/{id}/channels once the timer is saved). Absent when none was asked for.
   */
  channel: z.optional(z.object({ kind: z.enum(CHANNEL_KIND_WIRE) })),
});
export type DescribeReply = z.output<typeof describeReplySchema>;

/**
 * What the describe-a-timer Gemini call must answer (structured output), checked with this schema before
 * anything of it is used; `unclear` lists the parts of the sentence the model did not understand, and
 * `refusal` says why the sentence cannot be a timer ("twice a week").
 */
export const modelDescriptionSchema = z.object({
  refusal: z.nullable(z.string()),
  scheduleType: z.nullable(z.enum(SCHEDULE_TYPES)),
  time: z.nullable(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/))),
  weekday: z.nullable(z.enum(WEEKDAYS)),
  question: z.string(),
  website: z.nullable(z.string()),
  window_next_days: z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(366))),
  window_from: z.nullable(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
  window_to: z.nullable(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
  place: z.nullable(z.string()),
  radius_km: z.nullable(z.number().check(z.minimum(1), z.maximum(1000))),
  attendance: z.enum(['both', 'in_person', 'online']),
  exclude: z.array(z.string()),
  unclear: z.array(z.string()),
});
export type ModelDescription = z.output<typeof modelDescriptionSchema>;
