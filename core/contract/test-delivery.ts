import * as z from 'zod/mini';
import { webhookDeliverySchema } from './webhook-delivery';

/**
 * Where a timer's messages go, each with a preview and a test send: the timer's email and its signed webhook.
 * A new kind of destination is one more name here and one entry in core/delivery/destinations.ts.
 */
export const DESTINATIONS = ['email', 'webhook'] as const;
export type DestinationName = (typeof DESTINATIONS)[number];

const DESTINATION_WORDS = DESTINATIONS.map((d) => `"${d}"`).join(' or ');

/** POST /api/timers/:id/test-delivery and /v1/timers/:id/test-delivery. */
export const testDeliveryRequestSchema = z.object(
  {
    destination: z
      .enum(DESTINATIONS, { error: `Say where to send the test: "destination" is ${DESTINATION_WORDS}.` })
      .check(z.describe('Where to send the test: the timer’s email or its webhook.')),
  },
  { error: `The request body must be a JSON object such as {"destination": "email"} (${DESTINATION_WORDS}).` },
);
export type TestDeliveryRequest = z.infer<typeof testDeliveryRequestSchema>;

/** A test send's result: it arrived, or what the receiver answered, in words. */
export const testDeliveryReplySchema = z.object({
  destination: z.enum(DESTINATIONS),
  delivered: z.boolean().check(z.describe('true when the mail server or the webhook accepted the test.')),
  message: z
    .string()
    .check(
      z.describe(
        'What happened, for a person: "Delivered to …", or the receiver’s answer, e.g. "The webhook at example.org answered HTTP 500: …".',
      ),
    ),
});
export type TestDeliveryReply = z.infer<typeof testDeliveryReplySchema>;

/**
 * How one destination's message will look: an email (subject, HTML, text) or a JSON body as posted. A kind of
 * destination with a body of its own adds its schema to `body` as a union.
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
    url: z.nullable(z.string()),
    body: webhookDeliverySchema.check(z.describe('The JSON body as posted and signed.')),
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
      destination: z.enum(DESTINATIONS),
      label: z.string(),
      /** null when a test can be sent now; otherwise why not, and what to do. */
      unavailable: z.nullable(z.string()),
      preview: z.nullable(messagePreviewSchema),
    }),
  ),
});
export type TimerPreviewReply = z.infer<typeof timerPreviewReplySchema>;
