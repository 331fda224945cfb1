import * as z from 'zod/mini';
import { CHANNEL_KIND_WIRE } from './channel-kinds';
import { discordBodySchema, ntfyHeadersSchema, slackBodySchema, teamsBodySchema } from './channel-bodies';
import { webhookDeliverySchema } from './webhook-delivery';

/**
 * Where a timer's messages go, each with a preview and a test send: the timer's email, its signed webhook, and
 * each of its channels by id (`channel:12`, the id as the timer's `channels` list it). A new kind of destination
 * is one more form here and one entry in core/delivery/destinations.ts.
 */
export const DESTINATIONS = ['email', 'webhook'] as const;
export type DestinationName = (typeof DESTINATIONS)[number] | `channel:${number}`;

/** `channel:` and a channel's id. */
export const CHANNEL_DESTINATION = /^channel:[1-9][0-9]{0,15}$/;

/** A channel's destination name. */
export const channelDestination = (channelId: number): DestinationName => `channel:${channelId}`;

/** The channel id a destination names, or null for email and the webhook. */
export function destinationChannelId(name: DestinationName): number | null {
  return CHANNEL_DESTINATION.test(name) ? Number(name.slice('channel:'.length)) : null;
}

const DESTINATION_WORDS = '"email", "webhook" or "channel:<id>" (a channel’s id, as the timer’s channels list it)';

const destinationSchema = (error?: string) =>
  z
    .union(
      [
        z.enum(DESTINATIONS),
        z
          .string()
          .check(
            z.regex(CHANNEL_DESTINATION, error ? { error } : undefined),
            z.describe('One of the timer’s channels: "channel:" and its id.'),
          ) as z.ZodMiniType<`channel:${number}`>,
      ],
      error ? { error } : undefined,
    )
    .check(z.describe('Where the test goes: the timer’s email, its webhook, or one of its channels ("channel:12").'));

/** POST /api/timers/:id/test-delivery and /v1/timers/:id/test-delivery. */
export const testDeliveryRequestSchema = z.object(
  { destination: destinationSchema(`Say where to send the test: "destination" is ${DESTINATION_WORDS}.`) },
  { error: `The request body must be a JSON object such as {"destination": "email"}: "destination" is ${DESTINATION_WORDS}.` },
);
export type TestDeliveryRequest = z.infer<typeof testDeliveryRequestSchema>;

/** A test send's result: it arrived, or what the receiver answered, in words. */
export const testDeliveryReplySchema = z.object({
  destination: destinationSchema(),
  delivered: z.boolean().check(z.describe('true when the mail server, the webhook or the channel’s service accepted the test.')),
  message: z
    .string()
    .check(
      z.describe(
        'What happened, for a person: "Delivered to …", or the receiver’s answer, e.g. "The webhook at example.org answered HTTP 500: …".',
      ),
    ),
});
export type TestDeliveryReply = z.infer<typeof testDeliveryReplySchema>;

const channelUrl = z
  .nullable(z.string())
  .check(z.describe('The channel’s address masked, as "https://hooks.slack.com/…a1b2"; null for a read-only token.'));

/**
 * How one destination's message will look: an email (subject, HTML, text), the webhook's JSON body, or a
 * channel's message as its service receives it (`format` names the service). A new kind of destination adds
 * its format here.
 */
export const messagePreviewSchema = z.discriminatedUnion('format', [
  z.object({
    format: z.literal('email'),
    to: z.string(),
    subject: z.string(),
    html: z.string().check(z.describe('The HTML part as sent (its unsubscribe link a placeholder: each email gets its own).')),
    text: z.string(),
  }),
  z.object({
    format: z.literal('json'),
    url: z.nullable(z.string()).check(z.describe('The webhook’s address; null for a read-only token.')),
    body: webhookDeliverySchema.check(z.describe('The JSON body as posted and signed.')),
  }),
  z.object({
    format: z.literal('slack'),
    url: channelUrl,
    body: slackBodySchema.check(z.describe('The JSON body as posted to the Slack incoming webhook.')),
  }),
  z.object({
    format: z.literal('discord'),
    url: channelUrl,
    body: discordBodySchema.check(z.describe('The JSON body as posted to the Discord webhook.')),
  }),
  z.object({
    format: z.literal('teams'),
    url: channelUrl,
    body: teamsBodySchema.check(z.describe('The JSON body as posted to the Teams Workflows webhook.')),
  }),
  z.object({
    format: z.literal('ntfy'),
    url: channelUrl,
    headers: ntfyHeadersSchema,
    text: z.string().check(z.describe('The message as posted: the body of the POST to the topic.')),
  }),
]);
export type MessagePreview = z.infer<typeof messagePreviewSchema>;

/** GET /api/timers/:id/preview: the next digest on each destination, built from the last run's events. */
export const timerPreviewReplySchema = z.object({
  basis: z
    .enum(['news', 'known', 'nothing', 'no-run'])
    .check(
      z.describe(
        'news: the last run’s new and changed events; known: the last run found only known events, shown as new; nothing: it found no events; no-run: the timer has not run yet.',
      ),
    ),
  note: z.string().check(z.describe('What the preview is built from, in words.')),
  run: z.nullable(z.object({ id: z.number(), scheduled_for: z.string() })),
  destinations: z.array(
    z.object({
      destination: destinationSchema(),
      label: z
        .string()
        .check(z.describe('"Email", "Webhook", or the channel’s service and masked address ("Slack · https://hooks.slack.com/…a1b2").')),
      kind: z.enum(['email', 'webhook', ...CHANNEL_KIND_WIRE]),
      /** null when a test can be sent now; otherwise why not, and what to do. */
      unavailable: z.nullable(z.string()),
      preview: z.nullable(messagePreviewSchema),
    }),
  ),
});
export type TimerPreviewReply = z.infer<typeof timerPreviewReplySchema>;
