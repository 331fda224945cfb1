import { Hono } from 'hono';
import Stripe from 'stripe';
import { cancelSubscription } from '../../core/billing/cancel';
import { changePlan } from '../../core/billing/change-plan';
import { createPortalSession } from '../../core/billing/portal';
import { type BillingReply, type CancelReply, type CheckoutReply, checkoutRequestSchema } from '../../core/contract/billing';
import { getBilling, type Billing } from '../../db/accounts';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser, signedIn } from '../middleware/session';
import { jsonBody } from '../validate';
import { ALLOWANCES } from '../../core/plans';

const PROVIDER_DOWN = 'The payment provider could not be reached. Please try again in a moment.';

/** Stripe failures become a 502 in the route's shape; anything else stays a bug (500). */
function providerError(err: unknown, options: ConstructorParameters<typeof ApiError>[2] = {}): unknown {
  return err instanceof Stripe.errors.StripeError ? new ApiError(502, PROVIDER_DOWN, options) : err;
}

/** The one mapping from an account's billing to its JSON: GET /api/account/billing and the page's first state. */
export function billingReply(billing: Billing): BillingReply {
  return {
    subscription_tier: billing.tier,
    credits: billing.credits,
    subscription_status: billing.status,
    period_end: billing.periodEnd.toISOString(),
    allowance: billing.allowance,
    searches_used: billing.used,
  };
}

/** Plans and payment: billing info, checkout or plan switch, cancel, and the Stripe billing portal. */
export function billingRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/api/account/billing', async (c) => {
    const user = requireUser(c);
    const billing = await getBilling(deps.sql, user.id, ALLOWANCES);
    if (!billing) throw new ApiError(404, 'Your account was not found. Please sign out and sign in again.');
    c.header('Cache-Control', 'no-store');
    return c.json(billingReply(billing));
  });

  app.post('/create-checkout-session', signedIn, jsonBody(checkoutRequestSchema), async (c) => {
    const user = requireUser(c);
    const body = c.req.valid('json');
    const result = await changePlan(deps, user.id, body.lookup_key).catch((err) => {
      throw providerError(err);
    });
    switch (result.kind) {
      case 'checkout':
        return c.json({ url: result.url } satisfies CheckoutReply);
      case 'updated':
        return c.json({ message: 'Subscription updated' } satisfies CheckoutReply);
      case 'same':
        return c.json({ message: 'Already on selected plan' } satisfies CheckoutReply);
      case 'no-price':
        c.get('log').error({ lookupKey: body.lookup_key }, 'Stripe price missing: run npm run stripe:setup');
        throw new ApiError(503, 'This plan cannot be bought right now. Please try again later or contact support.');
    }
  });

  app.post('/cancel-subscription', async (c) => {
    const user = requireUser(c);
    const canceled = await cancelSubscription(deps, user.id).catch((err) => {
      throw providerError(err, { body: { success: false, message: PROVIDER_DOWN } });
    });
    return canceled
      ? c.json({ success: true, message: 'Subscription canceled. You are now on the Free plan.' } satisfies CancelReply)
      : c.json({ success: false, message: 'You have no paid subscription to cancel.' } satisfies CancelReply);
  });

  // A plain HTML form posts here, so errors are short sentences rather than JSON.
  app.post('/create-portal-session', async (c) => {
    const user = requireUser(c);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    // Without a session id (the payment-failed banner) the portal opens for the signed-in user's own customer.
    const sessionId = typeof form.session_id === 'string' && form.session_id.trim() ? form.session_id.trim() : null;
    const result = await createPortalSession(deps, user.id, sessionId).catch((err) => {
      throw providerError(err);
    });
    if (!result.ok) {
      if (result.reason === 'no-customer') {
        throw new ApiError(400, 'You have no billing account yet. Choose the Plus or Pro plan first.');
      }
      throw result.reason === 'not-found'
        ? new ApiError(404, 'That checkout session was not found. Go back and try again.')
        : new ApiError(403, 'That checkout session belongs to another account. Sign in with the account that paid.');
    }
    return c.redirect(result.url, 303);
  });

  return app;
}
