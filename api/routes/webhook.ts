import { Hono } from 'hono';
import type Stripe from 'stripe';
import { handleStripeEvent } from '../../core/billing/stripe-events';
import type { AppDeps, AppEnv } from '../deps';

/** POST /webhook: Stripe events, verified against STRIPE_WEBHOOK_SECRET over the raw body. */
export function webhookRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.post('/webhook', async (c) => {
    const signature = c.req.header('stripe-signature');
    // The signature covers the exact bytes sent, so the body is read raw and never re-serialised.
    const payload = await c.req.text();
    if (!signature) return c.json({ error: 'Missing Stripe-Signature header.' }, 400);
    let event: Stripe.Event;
    try {
      event = await deps.stripe.webhooks.constructEventAsync(payload, signature, deps.config.stripe.webhookSecret);
    } catch (err) {
      c.get('log').warn({ err: (err as Error).message }, 'webhook signature refused');
      return c.json({ error: 'Invalid Stripe signature.' }, 400);
    }
    // Signed but malformed: the id is what makes a redelivery a no-op, so an event without one is never applied.
    if (typeof event.id !== 'string' || !event.id || typeof event.type !== 'string' || !Number.isFinite(event.created)) {
      c.get('log').warn({ type: event.type }, 'webhook event without id, type or created refused');
      return c.json({ error: 'The Stripe event has no id, type or created time, so it was not applied.' }, 400);
    }
    const outcome = await handleStripeEvent(deps, event);
    c.get('log').info({ eventId: event.id, type: event.type, outcome }, 'stripe event');
    return c.json({ received: true, outcome });
  });

  return app;
}
