import * as z from 'zod/mini';
import { WEBSITE_NOT_TEXT } from './ask';
import { IANA_ZONE_WIRE, SCHEDULE_TYPE_WIRE, TIME_OF_DAY_WIRE, WEEKDAY_WIRE } from './schedule-wire';
import { timerChannelSchema } from './timer-channels';
import { timerFiltersSchema } from './timer-filters';
import { checkedLater } from './wire-type';

const FIELDS = 'scheduleType, time, weekday, ques, web, timezone, paused, email, webhook_url, filters and checked_only';
const QUESTION_NOT_TEXT = 'ques must be the question as text.';

/**
 * PATCH /api/timers/:id: any of these. The fields of POST /api/schedule edit the timer in place (those left out
 * keep their values; core/timers/edit.ts checks the result as creation does); `webhook_url` null or "" removes
 * the webhook. Each error is the sentence the 400 answers with.
 */
export const timerSettingsSchema = z.strictObject(
  {
    scheduleType: checkedLater(z.optional(z.unknown()), SCHEDULE_TYPE_WIRE),
    time: checkedLater(z.optional(z.unknown()), TIME_OF_DAY_WIRE),
    weekday: checkedLater(z.optional(z.unknown()), WEEKDAY_WIRE),
    timezone: checkedLater(z.optional(z.unknown()), IANA_ZONE_WIRE),
    ques: z.optional(z.string({ error: QUESTION_NOT_TEXT })),
    web: z.optional(z.nullable(z.string({ error: WEBSITE_NOT_TEXT }))),
    paused: z.optional(z.boolean({ error: 'paused must be true or false.' })),
    email: z.optional(z.boolean({ error: 'email must be true or false.' })),
    webhook_url: z.optional(z.nullable(z.string({ error: 'webhook_url must be a web address (text), or null to remove the webhook.' }))),
    /** The timer's filters, replaced whole (core/contract/timer-filters.ts); null keeps every event again. */
    filters: checkedLater(
      z.optional(z.unknown()),
      z
        .nullable(timerFiltersSchema)
        .check(z.describe('Replaces the timer’s filters whole (fields left out are no longer filtered); null removes them.')),
    ),
    /** Deliver only events a page confirmed, corrected or gave; false (the default) delivers all, marked. */
    checked_only: z.optional(z.boolean({ error: 'checked_only must be true or false.' })),
  },
  { error: `The request body must be a JSON object with any of ${FIELDS}; only those can be changed here.` },
);

export type TimerSettingsBody = z.infer<typeof timerSettingsSchema>;

/** Parses the body; `message` is a sentence saying what to send instead. */
export function parseTimerSettings(body: unknown): { ok: true; value: TimerSettingsBody } | { ok: false; message: string } {
  const parsed = timerSettingsSchema.safeParse(body);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? `Send any of ${FIELDS}.` };
  if (Object.keys(parsed.data).length === 0) return { ok: false, message: `Send at least one of ${FIELDS} to change.` };
  return { ok: true, value: parsed.data };
}

const deliveryStateSchema = z.nullable(z.object({ status: z.string(), at: z.string(), error: z.nullable(z.string()) }));

/**
 * A timer's delivery fields in GET /api/timers and the PATCH reply: pause state (`paused_reason` null when
 * paused by hand), channels, failures in a row, the last delivery per channel, and whether this server sends
 * email at all (`email_available` false: production without SMTP_URL).
 */
export const timerDeliveryShape = {
  paused: z.boolean(),
  paused_reason: z.nullable(z.string()),
  email: z.boolean(),
  email_available: z.boolean(),
  webhook_url: z.nullable(z.string()),
  /** Why the timer's webhook was removed (it answered 410 Gone), until a new address is set; absent from older servers. */
  webhook_notice: z.optional(z.nullable(z.string())),
  consecutive_failures: z.number(),
  /** Whether the feed and messages carry only checked events (absent from older servers). */
  checked_only: z.optional(z.boolean()),
  last_delivery: z.object({ email: deliveryStateSchema, webhook: deliveryStateSchema }),
  /** The timer's Slack, Discord, Teams and ntfy channels, addresses masked (absent from older servers). */
  channels: z.optional(z.array(timerChannelSchema)),
};
