import * as z from 'zod/mini';
import { CHANNEL_KIND_WIRE } from './channel-kinds';
import { searchReplySchema, timerRunsReplySchema } from './event-replies';
import { SCHEDULE_TYPES, WEEKDAYS } from './schedule-values';
import { testDeliveryReplySchema, testDeliveryRequestSchema } from './test-delivery';
import { timerEventsReplySchema } from './timer-events';
import { listedTimerSchema, timersReplySchema } from './timers';

// The MCP tools' arguments carry the /v1 bodies' field names, so a tool hands them to its /v1 call as they are;
// here they are typed and described for an agent, where the page's schemas leave the rules to the server.

/** find_events: POST /v1/search. */
export const findEventsInput = {
  ques: z.string().check(z.describe('The question, e.g. "AI conferences in Berlin next month".')),
  web: z.optional(z.string().check(z.describe('A website to read for events first (http or https), e.g. a venue’s calendar page.'))),
  timezone: z.optional(z.string().check(z.describe('The IANA time zone dates are meant in, e.g. Europe/Berlin. Default UTC.'))),
};

/** get_search: GET /v1/searches/:id (find_events' events once its `events_status` is no longer 'pending'). */
export const getSearchInput = {
  search_id: z.number().check(z.int(), z.positive(), z.describe('The search’s id, as find_events gives it.')),
  // A cursor is a string, but agents often hand a number-looking one back as a number: both are taken.
  events_after: z.optional(
    z
      .union([z.string(), z.number()])
      .check(z.describe('The `events_cursor` of an earlier get_search of this search: only the events after it come back.')),
  ),
  events_limit: z.optional(
    z.number().check(z.int(), z.positive(), z.describe('How many events to return, 1 to 500; all of them when left out.')),
  ),
};

/** create_timer: POST /v1/timers. */
export const createTimerInput = {
  ques: z.string().check(z.describe('The question the timer repeats.')),
  web: z.optional(z.string().check(z.describe('A website to read for events at each run (http or https).'))),
  scheduleType: z.enum(SCHEDULE_TYPES).check(z.describe('daily or weekly.')),
  time: z.string().check(z.describe('The local time of each run, HH:MM (24 hours).')),
  weekday: z.optional(z.enum(WEEKDAYS).check(z.describe('The day of a weekly timer.'))),
  timezone: z.string().check(z.describe('The IANA time zone of `time`, e.g. Europe/Berlin.')),
};

/** edit_timer: PATCH /v1/timers/:id with the fields to change; those left out keep their values. */
export const editTimerInput = {
  timer_id: z.number().check(z.int(), z.positive(), z.describe('The timer’s id, as list_timers gives it.')),
  ques: z.optional(z.string().check(z.describe('A new question for the timer to repeat.'))),
  web: z.optional(z.string().check(z.describe('A new website to read at each run (http or https); "" for none.'))),
  scheduleType: z.optional(z.enum(SCHEDULE_TYPES).check(z.describe('daily or weekly.'))),
  time: z.optional(z.string().check(z.describe('A new local time of each run, HH:MM (24 hours).'))),
  weekday: z.optional(z.enum(WEEKDAYS).check(z.describe('The day of a weekly timer.'))),
  timezone: z.optional(z.string().check(z.describe('The IANA time zone of `time`, e.g. Europe/Berlin.'))),
  paused: z.optional(z.boolean().check(z.describe('true pauses the timer, false resumes it.'))),
  add_channel: z.optional(
    z
      .object({
        kind: z.enum(CHANNEL_KIND_WIRE).check(z.describe('slack, discord, teams or ntfy.')),
        url: z
          .string()
          .check(
            z.describe(
              'The address the user got from the service: a Slack incoming webhook, a Discord webhook, a Teams Workflows webhook, or an ntfy topic URL. Ask the user for it; never guess one.',
            ),
          ),
        token: z.optional(z.string().check(z.describe('An ntfy access token, for a protected topic only.'))),
      })
      .check(z.describe('Also post this timer’s new and changed events to a Slack, Discord, Teams or ntfy channel.')),
  ),
};

/** send_test_delivery: POST /v1/timers/:id/test-delivery. */
export const sendTestDeliveryInput = {
  timer_id: z.number().check(z.int(), z.positive(), z.describe('The timer’s id, as list_timers gives it.')),
  destination: testDeliveryRequestSchema.shape.destination.check(
    z.describe(
      '"email" (the user’s address), "webhook" (the timer’s webhook URL), or "channel:<id>" for one of its Slack, Discord, Teams or ntfy channels (the ids list_timers gives in `channels`).',
    ),
  ),
};

/** timer_events: GET /v1/timers/:id/events?since=. */
export const timerEventsInput = {
  timer_id: z.number().check(z.int(), z.positive(), z.describe('The timer’s id, as list_timers gives it.')),
  // A cursor is a string, but agents often hand a number-looking one back as a number: both are taken.
  since: z.optional(
    z.union([z.string(), z.number()]).check(z.describe('The `cursor` of an earlier timer_events call: only what is newer comes back.')),
  ),
};

/** list_timer_runs: GET /v1/timers/:id/runs. */
export const listTimerRunsInput = {
  timer_id: z.number().check(z.int(), z.positive(), z.describe('The timer’s id, as list_timers gives it.')),
};

/** What each tool returns as structured content: the /v1 reply (a list wrapped, as structured content is an object). */
export const findEventsOutput = searchReplySchema;
export const getSearchOutput = searchReplySchema;
export const listTimersOutput = z.object({ timers: timersReplySchema });
export const createTimerOutput = listedTimerSchema;
export const editTimerOutput = listedTimerSchema;
export const timerEventsOutput = timerEventsReplySchema;
export const listTimerRunsOutput = z.object({ runs: timerRunsReplySchema });
export const sendTestDeliveryOutput = testDeliveryReplySchema;
