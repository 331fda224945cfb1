import * as z from 'zod/mini';
import { eventSchema } from './event';

/** What a webhook delivery is about: a run's new or changed events, a timer that paused itself, a skipped run. */
export const WEBHOOK_KINDS = ['digest', 'paused', 'out-of-searches'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/**
 * The JSON body of a webhook POST (core/delivery/webhook-payload.ts writes it), signed with the Standard
 * Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) when the timer has a secret.
 */
export const webhookDeliverySchema = z.object({
  text: z.string().check(z.describe('A summary to show as is, escaped for Slack’s markup (Slack, Mattermost, ntfy read `text`).')),
  content: z.string().check(z.describe('The same summary unescaped, at most 2,000 characters (what Discord reads).')),
  allowed_mentions: z.object({ parse: z.array(z.string()) }).check(z.describe('Tells Discord to ping nobody.')),
  kind: z.enum(WEBHOOK_KINDS),
  timer: z.object({
    id: z.number(),
    question: z.string(),
    website: z.string(),
    timezone: z.string(),
    url: z.string().check(z.describe('The timer’s runs on the page.')),
  }),
  run: z.object({
    id: z.number(),
    scheduled_for: z.string().check(z.describe('ISO 8601, UTC.')),
    status: z.string(),
    error: z.nullable(z.string()),
    new_count: z.number().check(z.describe('How many of `events` are new (the rest changed).')),
  }),
  events: z.array(eventSchema).check(z.describe('The run’s new and changed events (digest); empty for the other kinds.')),
  test: z.optional(
    z
      .literal(true)
      .check(
        z.describe(
          'Present, and true, only on a test sent with “Send a test” (POST /v1/timers/{id}/test-delivery): a `digest` built from the timer’s last run, signed the same way, recorded nowhere. Real deliveries leave it out.',
        ),
      ),
  ),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
