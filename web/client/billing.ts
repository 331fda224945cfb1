import { setAppState, type BillingInfo } from './app-state';
import { apiFetch } from './http';
import { readReply } from './replies';

/** GET /api/account/billing; throws on a non-ok reply. */
export async function fetchBilling(): Promise<BillingInfo> {
  const res = await apiFetch('/api/account/billing');
  if (!res.ok) throw new Error(`Billing request failed (${res.status})`);
  return readReply(res, (s) => s.billingReplySchema);
}

/**
 * Re-reads billing into the page state (credits badge, current plan) and returns it. The spec only logs a
 * failure: the page keeps what it showed, and the caller gets null.
 */
export async function refreshBilling(): Promise<BillingInfo | null> {
  try {
    const billing = await fetchBilling();
    setAppState({ billing });
    return billing;
  } catch (err) {
    console.warn('Could not refresh billing:', err);
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads billing until `done` accepts it: the spec's 5 attempts, 1 second apart (a webhook may land a moment
 * after Stripe answers). Returns the accepted billing, or null after the last attempt.
 */
export async function pollBilling(
  done: (billing: BillingInfo) => boolean,
  { attempts = 5, delayMs = 1000 } = {},
): Promise<BillingInfo | null> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await sleep(delayMs);
    try {
      const billing = await fetchBilling();
      if (done(billing)) return billing;
    } catch (err) {
      console.warn('Billing poll failed:', err);
    }
  }
  return null;
}
