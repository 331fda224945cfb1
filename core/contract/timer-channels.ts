import * as z from 'zod/mini';
import { CHANNEL_KIND_WIRE } from './channel-kinds';

const KIND_WORDS = 'kind must be one of slack, discord, teams or ntfy.';

/**
 * POST /api/timers/:id/channels, /v1/timers/:id/channels: a channel to add. `url` is the service's address
 * (a Slack incoming webhook, a Discord webhook, a Teams Workflows webhook, an ntfy topic URL); `token` is an
 * ntfy access token for a protected topic (ntfy only). Each error is the sentence the 400 answers with.
 */
export const addChannelRequestSchema = z.strictObject(
  {
    kind: z.enum(CHANNEL_KIND_WIRE, { error: KIND_WORDS }),
    url: z.string({ error: 'url must be the address your service gives (text), such as https://hooks.slack.com/services/….' }),
    token: z.optional(z.nullable(z.string({ error: 'token must be an ntfy access token (text), or left out.' }))),
  },
  { error: 'Send a JSON object with kind (slack, discord, teams or ntfy), url and, for a protected ntfy topic, token.' },
);
export type AddChannelRequest = z.infer<typeof addChannelRequestSchema>;

const deliveryStateSchema = z.nullable(z.object({ status: z.string(), at: z.string(), error: z.nullable(z.string()) }));

/**
 * A timer's channel as replies carry it: its address masked (the address is a secret: whoever has it can post
 * there), null for a read-only token; whether it has an access token; why it stopped, if it did; its last delivery.
 */
export const timerChannelSchema = z.object({
  id: z.number(),
  kind: z.enum(CHANNEL_KIND_WIRE),
  address: z.nullable(z.string()).check(z.describe('The address masked, as "https://hooks.slack.com/…a1b2"; null for a read-only token.')),
  has_token: z.boolean(),
  stopped: z.nullable(z.string()).check(z.describe('Why the channel stopped (its service said the address is gone); null while it posts.')),
  last_delivery: deliveryStateSchema,
});
export type TimerChannelJson = z.infer<typeof timerChannelSchema>;
