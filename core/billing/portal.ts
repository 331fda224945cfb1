import { findBillingAccount } from '../../db/billing';
import type { BillingDeps } from './deps';
import { isMissingInStripe } from './missing';
import { idOf } from './subscription-state';

export type PortalResult = { ok: true; url: string } | { ok: false; reason: 'not-found' | 'not-yours' | 'no-customer' };

/**
 * A billing portal link for the user's own customer. The checkout session id comes from the page, so it is
 * only accepted when that session was opened by this same user for this same customer. Without one (the
 * payment-failed banner, which has no checkout to point at) the portal opens for the signed-in user's own
 * customer, when there is one.
 */
export async function createPortalSession(deps: BillingDeps, userId: number, checkoutSessionId: string | null): Promise<PortalResult> {
  const account = await findBillingAccount(deps.sql, userId);
  if (checkoutSessionId === null) {
    if (!account?.stripeCustomerId) return { ok: false, reason: 'no-customer' };
    try {
      return { ok: true, url: await portalUrl(deps, account.stripeCustomerId) };
    } catch (err) {
      if (isMissingInStripe(err)) return { ok: false, reason: 'no-customer' };
      throw err;
    }
  }
  let session: Awaited<ReturnType<BillingDeps['stripe']['checkout']['sessions']['retrieve']>>;
  try {
    session = await deps.stripe.checkout.sessions.retrieve(checkoutSessionId);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return { ok: false, reason: 'not-found' };
    throw err;
  }
  const customer = idOf(session.customer);
  if (!account?.stripeCustomerId || session.client_reference_id !== String(userId) || customer !== account.stripeCustomerId) {
    return { ok: false, reason: 'not-yours' };
  }
  return { ok: true, url: await portalUrl(deps, customer) };
}

async function portalUrl(deps: BillingDeps, customer: string): Promise<string> {
  const portal = await deps.stripe.billingPortal.sessions.create({ customer, return_url: `${deps.config.appUrl}/` });
  return portal.url;
}
