import type { TestStack } from '../../dev/harness/stack';

/** Calls the app like a non-browser client: session cookie, no Origin (so the CSRF check lets it through). */
export function appFetch(stack: TestStack, cookie: string | null, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (cookie) headers.set('cookie', cookie);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${stack.url}${path}`, { ...init, headers, redirect: 'manual' });
}

export async function getBillingJson(stack: TestStack, cookie: string) {
  const res = await appFetch(stack, cookie, '/api/account/billing');
  if (!res.ok) throw new Error(`billing: ${res.status} ${await res.text()}`);
  return (await res.json()) as {
    subscription_tier: string;
    credits: number;
    subscription_status: string;
    period_end: string;
    allowance: number;
  };
}

/** Starts a checkout for the user and returns the stand-in's checkout session id. */
export async function startCheckout(stack: TestStack, cookie: string, lookupKey: string): Promise<string> {
  const res = await appFetch(stack, cookie, '/create-checkout-session', {
    method: 'POST',
    body: JSON.stringify({ lookup_key: lookupKey }),
  });
  const body = (await res.json()) as { url?: string };
  if (!body.url) throw new Error(`checkout: ${res.status} ${JSON.stringify(body)}`);
  return new URL(body.url).pathname.split('/').pop()!;
}

/**
 * Subscribes the user through checkout and the stand-in's 'Pay'. With `deliver: false` the webhooks are only
 * recorded, so a test can deliver them in any order.
 */
export async function subscribe(stack: TestStack, cookie: string, lookupKey: string, deliver = true) {
  const sessionId = await startCheckout(stack, cookie, lookupKey);
  const paid = stack.standins.stripe.pay(sessionId, deliver);
  await paid.delivered;
  return { sessionId, subscriptionId: paid.subscription.id as string, events: paid.events };
}

/** Marks n searches used, as the search pipeline's takeCredit does. */
export async function useSearches(stack: TestStack, userId: number, n: number): Promise<void> {
  await stack.db.sql`update accounts set searches_used = searches_used + ${n} where user_id = ${userId}`;
}
