import type * as z from 'zod/mini';
import type { ApiTokenScope } from '../../core/contract/api-tokens';
import { askRequestSchema } from '../../core/contract/ask';
import { billingReplySchema } from '../../core/contract/billing';
import { describeReplySchema, describeRequestSchema } from '../../core/contract/describe';
import { runNowReplySchema, searchReplySchema, timerRunsReplySchema } from '../../core/contract/event-replies';
import { createdTimerSchema, patchedTimerReplySchema, v1ScheduleRequestSchema } from '../../core/contract/public-api';
import { searchHistoryReplySchema } from '../../core/contract/search-history';
import { STORED_EVENTS_PER_SEARCH } from '../../core/search/stored-events';
import { testDeliveryReplySchema, testDeliveryRequestSchema, timerPreviewReplySchema } from '../../core/contract/test-delivery';
import { TEST_SENDS } from '../../core/delivery/test-message';
import { addChannelRequestSchema, timerChannelSchema } from '../../core/contract/timer-channels';
import { timerEventsReplySchema } from '../../core/contract/timer-events';
import { timerSettingsSchema } from '../../core/contract/timer-settings';
import { timersReplySchema } from '../../core/contract/timers';

export type Method = 'get' | 'post' | 'patch' | 'delete';

export interface Reply {
  description: string;
  /** The JSON body's schema; absent for a reply without a body. */
  schema?: z.ZodMiniType;
  /** A body that is not JSON (the streamed answer, the suggestions page). */
  media?: { type: string; description: string };
  /** Headers clients read from this reply, as OpenAPI header objects. */
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

/** One /v1 operation: the route, what it does, the scope its token needs, its body and its replies. */
export interface Operation {
  method: Method;
  /** As Hono writes it: `/v1/timers/:id`. */
  path: string;
  id: string;
  summary: string;
  description: string;
  scope: ApiTokenScope;
  body?: z.ZodMiniType;
  /** Query parameters; a string unless `schema` (JSON Schema) says otherwise. */
  query?: { name: string; description: string; schema?: Record<string, unknown> }[];
  replies: Record<number, Reply>;
  /** Costs a credit or counts toward USER_RATE_PER_MINUTE, so it may answer 429 (and 402 when it searches). */
  limited?: boolean;
  /** Asks Gemini (or reads a website) for its answer, so it may answer 502 when that fails. */
  searches?: boolean;
}

/**
 * Every /v1 route with the contract schemas (core/contract) its replies are written with: the one source of the
 * OpenAPI document (./document.ts). test/api-v1.test.ts fails when Hono's /v1 routes and this list differ, or
 * a real reply does not match its schema here.
 */
export const OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/v1/search',
    id: 'search',
    summary: 'Search for events',
    description:
      'One search, charged like a search on the page (one credit; none when the search fails). The body is the page’s: `ques` the question, `web` an optional website to read first, `timezone` the IANA zone dates are meant in (UTC when left out). The reply is JSON with the answer; its events are found a moment after it, so the reply says `events_status` `pending` and GET /v1/searches/{id} has them once that is `done` (or `failed`, with those found). A search that fails after its answer began is an error too (its problem details carry `search_id` and `partial_answer`; GET /v1/searches/{id} keeps the part with status `failed`). To read the answer as it is written, use POST /v1/search/stream. A reply names the fields `question` and `website`; a request sending those names instead of `ques` and `web` is refused with 400 naming the field.',
    scope: 'search',
    body: askRequestSchema,
    limited: true,
    searches: true,
    replies: {
      200: { description: 'The answer; its events follow at GET /v1/searches/{id} (`events_status`).', schema: searchReplySchema },
    },
  },
  {
    method: 'post',
    path: '/v1/search/stream',
    id: 'searchStreamed',
    summary: 'Search for events, the answer streamed as it is written',
    description:
      'The same search as POST /v1/search, with the same body and charge, answered as plain text while it is written (as the page shows it). Its id is in `X-Search-Id`; GET /v1/searches/{id} has its events once the answer has ended.',
    scope: 'search',
    body: askRequestSchema,
    limited: true,
    searches: true,
    replies: {
      200: {
        description: 'The answer as it is written.',
        media: { type: 'text/plain', description: 'The answer, streamed.' },
        headers: {
          'X-Search-Id': {
            description: 'The search’s id, for GET /v1/searches/{id} once the answer has ended.',
            schema: { type: 'integer', minimum: 1 },
          },
        },
      },
    },
  },
  {
    method: 'get',
    path: '/v1/searches',
    id: 'listSearches',
    summary: 'Your past searches',
    description:
      'Your answered searches (from the page, POST /v1/search or find_events; not timer runs), newest first: each with its question, website, when it was asked and how many events it found. At most `limit` a page (20 unless said, up to 50); send the reply’s `cursor` as `before` for the older ones while `has_more` is true. GET /v1/searches/{id} has a search’s answer and events.',
    scope: 'read',
    query: [
      {
        name: 'before',
        description: 'The `cursor` of an earlier reply: the searches older than its last one. Leave it out to start with the newest.',
      },
      {
        name: 'limit',
        description: 'How many searches a page holds, 1 to 50; 20 when left out.',
        schema: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
      },
    ],
    replies: { 200: { description: 'A page of your searches, newest first.', schema: searchHistoryReplySchema } },
  },
  {
    method: 'get',
    path: '/v1/searches/:id',
    id: 'getSearch',
    summary: 'A search, its answer and events',
    description: `One of your searches, by the id POST /v1/search gave (the JSON \`id\`, or \`X-Search-Id\`). While \`events_status\` is \`pending\` its events are still being found: read it again a moment later. Its events (\`events\`, then \`hidden_events\`, one list) come whole unless \`events_limit\` says how many a page holds; while \`events_has_more\` is true, send the reply’s \`events_cursor\` as \`events_after\` for the next ones. A search keeps at most ${STORED_EVENTS_PER_SEARCH} events; \`events_left_out\` says how many more it found.`,
    scope: 'read',
    query: [
      {
        name: 'events_after',
        description:
          'The `events_cursor` of an earlier reply for this search: the events after its last one. Leave it out to start with the first.',
        schema: { type: 'string', pattern: '^[0-9]{1,9}$' },
      },
      {
        name: 'events_limit',
        description: `How many events a page holds, 1 to ${STORED_EVENTS_PER_SEARCH}; all of them when left out.`,
        schema: { type: 'integer', minimum: 1, maximum: STORED_EVENTS_PER_SEARCH, default: STORED_EVENTS_PER_SEARCH },
      },
    ],
    replies: { 200: { description: 'The search.', schema: searchReplySchema } },
  },
  {
    method: 'get',
    path: '/v1/searches/:id/suggestions',
    id: 'getSearchSuggestions',
    summary: 'Google Search suggestions of a grounded answer',
    description: 'Google’s Search Suggestions, which its terms require beside a grounded answer, as a small HTML page.',
    scope: 'read',
    replies: { 200: { description: 'The suggestions.', media: { type: 'text/html', description: 'A page to show beside the answer.' } } },
  },
  {
    method: 'get',
    path: '/v1/account',
    id: 'getAccount',
    summary: 'Your plan and searches left',
    description: 'The plan, the searches left this month and when they renew.',
    scope: 'read',
    replies: { 200: { description: 'The account.', schema: billingReplySchema } },
  },
  {
    method: 'get',
    path: '/v1/timers',
    id: 'listTimers',
    summary: 'Your timers',
    description: 'Every timer, with when it fires next, how its latest run went, its delivery settings and feeds.',
    scope: 'read',
    replies: { 200: { description: 'The timers.', schema: timersReplySchema } },
  },
  {
    method: 'post',
    path: '/v1/timers',
    id: 'createTimer',
    summary: 'Create a timer',
    description:
      'A timer repeats a question daily or weekly at a local time: `scheduleType` `daily` or `weekly`, `time` `HH:MM`, `weekday` (`Monday` … `Sunday`, weekly only), `timezone` an IANA name (UTC when left out), `ques` the question, `web` an optional website. At most 20 timers.',
    scope: 'timers',
    body: v1ScheduleRequestSchema,
    limited: true,
    replies: { 201: { description: 'The new timer, with its feed addresses.', schema: createdTimerSchema } },
  },
  {
    method: 'post',
    path: '/v1/timers/describe',
    id: 'describeTimer',
    summary: 'Read a sentence into a timer’s fields',
    description:
      'A sentence such as "every Friday at 8, AI meetups in Berlin, in person, next two weeks" read into the fields of `POST /v1/timers` (schedule, question, website, filters), with notes on what was assumed; nothing is saved. Common forms are read without the model; the rest with one Gemini call. `source` says which. A sentence asking for what no timer does (twice a week, every weekday) answers 400 with what to write instead.',
    scope: 'timers',
    body: describeRequestSchema,
    limited: true,
    searches: true,
    replies: {
      200: { description: 'The timer the sentence describes, to check and then create.', schema: describeReplySchema },
      503: { description: 'The AI service did not answer; fill in the fields yourself or try again.' },
    },
  },
  {
    method: 'patch',
    path: '/v1/timers/:id',
    id: 'updateTimer',
    summary: 'Edit a timer in place, pause or resume it, or change its delivery',
    description:
      'A merge of the fields sent: each field sent replaces that field, each field left out stays as it is; at least one is needed, and an unknown field is refused (400). The fields of POST /v1/timers (`scheduleType`, `time`, `weekday`, `ques`, `web`, `timezone`) are checked as at creation; the timer keeps its id, runs, feeds and the events it has seen, and a 409 means it was changed elsewhere meanwhile. `webhook_url` null or "" removes the webhook. `filters` is replaced whole, not merged: send every filter the timer should keep (null removes them all).',
    scope: 'timers',
    body: timerSettingsSchema,
    replies: {
      200: { description: 'The timer as it is now.', schema: patchedTimerReplySchema },
      409: { description: 'The timer was changed elsewhere while this change was checked (`conflict`); read it again and resend.' },
    },
  },
  {
    method: 'delete',
    path: '/v1/timers/:id',
    id: 'deleteTimer',
    summary: 'Delete a timer',
    description: 'The timer stops; its runs and feeds go with it.',
    scope: 'timers',
    replies: { 204: { description: 'Deleted.' } },
  },
  {
    method: 'post',
    path: '/v1/timers/:id/run',
    id: 'runTimer',
    summary: 'Run a timer now',
    description: 'A run now, the same as a scheduled one: one search, recorded and delivered. 409 while a run of it is in flight.',
    scope: 'timers',
    limited: true,
    replies: {
      202: { description: 'The run is queued; GET /v1/timers/{id}/runs shows it.', schema: runNowReplySchema },
      409: { description: 'A run of this timer is in flight.' },
    },
  },
  {
    method: 'post',
    path: '/v1/timers/:id/channels',
    id: 'addTimerChannel',
    summary: 'Post a timer’s digests to Slack, Discord, Microsoft Teams or ntfy',
    description:
      'Adds a channel: each run with new or changed events posts one message there, laid out for the service and cut to its limits with “and N more” linking the run (as the digest email, the pause alert and the no-searches notice). `kind` is `slack` (an incoming webhook: add the Incoming Webhooks app to a channel and copy its Webhook URL, https://hooks.slack.com/services/…), `discord` (channel settings → Integrations → Webhooks → New Webhook → Copy Webhook URL), `teams` (the channel’s Workflows → “Post to a channel when a webhook request is received”, and its address, signed with `sig=…`, which it is when the trigger lets “Anyone” run it; an unsigned one is refused, 400) or `ntfy` (a topic URL such as https://ntfy.sh/your-hard-to-guess-topic, with `token` an access token for a protected topic). The address must be public (a private or local one is refused, 400). It is a secret: replies show it masked, a `read` token not at all. A service that says the address is gone (Slack `no_service` or `channel_not_found`, Discord Unknown Webhook, Teams 401, 404, 410) stops the channel, with `stopped` saying so; a 429 is retried after the wait it asks for. At most 10 channels a timer (409).',
    scope: 'timers',
    body: addChannelRequestSchema,
    replies: {
      201: { description: 'The channel, its address masked.', schema: timerChannelSchema },
      409: { description: 'The timer has 10 channels already.' },
    },
  },
  {
    method: 'delete',
    path: '/v1/timers/:id/channels/:channelId',
    id: 'removeTimerChannel',
    summary: 'Stop posting to one of a timer’s channels',
    description: 'Removes the channel (by the `id` its timer lists); a message to it still queued is not sent.',
    scope: 'timers',
    replies: { 204: { description: 'Removed.' } },
  },
  {
    method: 'get',
    path: '/v1/timers/:id/runs',
    id: 'listTimerRuns',
    summary: 'A timer’s runs',
    description: 'The latest 20 runs, newest first, each with its answer and its events (new ones first).',
    scope: 'read',
    replies: { 200: { description: 'The runs.', schema: timerRunsReplySchema } },
  },
  {
    method: 'get',
    path: '/v1/timers/:id/preview',
    id: 'previewTimerMessages',
    summary: 'What the timer’s next digest will look like',
    description:
      'The next digest on each destination (the email: subject, HTML and text; the webhook: the JSON body as signed; each channel: the JSON body its Slack, Discord or Teams webhook gets, or the headers and text its ntfy topic gets), built from the last answered run’s events by the code that builds the real messages. `basis` and `note` say what it is built from; before the first run `destinations[].preview` is null. `unavailable` says why a test cannot go to a destination now. A read-only token gets the messages without the webhook’s and channels’ addresses (`url` null).',
    scope: 'read',
    replies: { 200: { description: 'The preview.', schema: timerPreviewReplySchema } },
  },
  {
    method: 'post',
    path: '/v1/timers/:id/test-delivery',
    id: 'sendTestDelivery',
    summary: 'Send a test of the timer’s digest to its email, webhook or one of its channels',
    description: `Sends the preview’s digest now, marked as a test (the email’s subject starts with \`[Test]\` and its first line says it is a test; the webhook body carries \`"test": true\`, its \`kind\` is \`digest\`, and it is signed as every delivery is; a channel’s title starts with “Test message —”), and answers once the mail server, webhook or service has answered: \`delivered\` true, or false with the receiver’s answer in \`message\` (e.g. Slack’s “no_service”, Discord’s “Unknown Webhook”). \`destination\` is \`email\`, \`webhook\` or \`channel:<id>\` (an id from the timer’s \`channels\`). It costs no search, records no run or delivery and marks no event as seen; it is not retried, and an answer that the address is gone stops nothing (the next real digest does). At most ${TEST_SENDS.points} tests a user in ${TEST_SENDS.seconds / 60} minutes (page, API and MCP together), then 429 with \`Retry-After\`. 400 when the timer has no such destination now (email off, no webhook, no such channel, a stopped channel).`,
    scope: 'timers',
    body: testDeliveryRequestSchema,
    limited: true,
    replies: { 200: { description: 'How the test went.', schema: testDeliveryReplySchema } },
  },
  {
    method: 'get',
    path: '/v1/timers/:id/events',
    id: 'listTimerEvents',
    summary: 'What a timer found new or changed since a cursor',
    description:
      'The events the timer’s runs found new (never seen by it) or changed (moved, cancelled), oldest first, at most 200. Keep `cursor` and send it as `since` next time to get only what came after.',
    scope: 'read',
    query: [{ name: 'since', description: 'The `cursor` of an earlier reply; leave it out to start at the beginning.' }],
    replies: { 200: { description: 'The events after the cursor.', schema: timerEventsReplySchema } },
  },
];
