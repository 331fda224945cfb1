import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFetch, getBillingJson, startCheckout, subscribe, useSearches } from './support/billing';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';

describe('billing routes', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  const store = () => stack.standins.stripe.store;
  const checkout = (cookie: string | null, body: unknown) =>
    appFetch(stack, cookie, '/create-checkout-session', { method: 'POST', body: JSON.stringify(body) });
  const portal = (cookie: string | null, sessionId: string) =>
    appFetch(stack, cookie, '/create-portal-session', {
      method: 'POST',
      body: new URLSearchParams({ session_id: sessionId }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('answers billing for the signed-in user only', async () => {
    expect((await appFetch(stack, null, '/api/account/billing')).status).toBe(401);
    const { cookie } = await createSignedInUser(stack.db.sql);
    const billing = await getBillingJson(stack, cookie);
    expect(billing).toMatchObject({ subscription_tier: 'free', credits: 10, subscription_status: 'active', allowance: 10 });
    expect(Date.parse(billing.period_end)).toBeGreaterThan(Date.now());
  });

  it('refuses unknown lookup keys and signed-out checkouts', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    for (const body of [{ lookup_key: 'gold_monthly' }, { lookup_key: 'free' }, {}, 'plus_monthly']) {
      const res = await checkout(cookie, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/plus_monthly, pro_monthly/);
    }
    expect((await checkout(null, { lookup_key: 'plus_monthly' })).status).toBe(401);
  });

  it('opens a subscription-mode checkout with the spec return URLs', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const sessionId = await startCheckout(stack, cookie, 'pro_monthly');
    const session = store().sessions.get(sessionId)!;
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: String(user.id),
      success_url: `${stack.url}/?success=true&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${stack.url}/?canceled=true`,
    });
    expect(store().prices.get(session.price)!.lookup_key).toBe('pro_monthly');
  });

  it('creates one Stripe customer under 5 concurrent checkouts', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const replies = await Promise.all(Array.from({ length: 5 }, () => checkout(cookie, { lookup_key: 'plus_monthly' })));
    for (const res of replies) expect((await res.json()).url).toMatch(/\/checkout\/cs_test_/);
    const mine = [...store().customers.values()].filter((c) => c.metadata.user_id === String(user.id));
    expect(mine).toHaveLength(1);
    const [account] = await stack.db.sql`select stripe_customer_id from accounts where user_id = ${user.id}`;
    expect(account!.stripe_customer_id).toBe(mine[0]!.id);
    // Only the last checkout can still be paid: two payable ones could both be paid and billed.
    const sessions = [...store().sessions.values()].filter((s) => s.customer === mine[0]!.id);
    expect(sessions).toHaveLength(5);
    expect(sessions.filter((s) => s.status === 'open')).toHaveLength(1);
    const expired = sessions.find((s) => s.status === 'expired')!;
    expect(() => stack.standins.stripe.pay(expired.id as string)).toThrow(/no longer open/);
  });

  it('switches plans in place and keeps the searches used this period', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const { subscriptionId } = await subscribe(stack, cookie, 'plus_monthly');
    await useSearches(stack, user.id, 7);
    expect(await (await checkout(cookie, { lookup_key: 'plus_monthly' })).json()).toEqual({ message: 'Already on selected plan' });

    expect(await (await checkout(cookie, { lookup_key: 'pro_monthly' })).json()).toEqual({ message: 'Subscription updated' });
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'pro', credits: 113 });
    expect(store().subscriptions.get(subscriptionId)!.items.data[0].price.lookup_key).toBe('pro_monthly');

    expect(await (await checkout(cookie, { lookup_key: 'plus_monthly' })).json()).toEqual({ message: 'Subscription updated' });
    await stack.standins.stripe.idle();
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'plus', credits: 43 });
    expect(
      [...store().subscriptions.values()].filter((s) => s.customer === store().subscriptions.get(subscriptionId)!.customer),
    ).toHaveLength(1);
  });

  it('cancels to free, keeping usage, and says so when there is nothing to cancel', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const cancel = () => appFetch(stack, cookie, '/cancel-subscription', { method: 'POST' }).then((r) => r.json());
    expect(await cancel()).toMatchObject({ success: false, message: expect.any(String) });
    const { subscriptionId } = await subscribe(stack, cookie, 'pro_monthly');
    await useSearches(stack, user.id, 8);
    expect(await cancel()).toEqual({ success: true, message: 'Subscription canceled. You are now on the Free plan.' });
    expect(store().subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'free', credits: 2 });
    await stack.standins.stripe.idle();
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'free', credits: 2 });
    // A new paid plan after cancelling goes through checkout again.
    expect((await (await checkout(cookie, { lookup_key: 'plus_monthly' })).json()).url).toBeDefined();
  });

  it('switches, not sells a second subscription, when the first was paid but its webhook has not arrived', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const { subscriptionId } = await subscribe(stack, cookie, 'plus_monthly', false);
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'free' });

    expect(await (await checkout(cookie, { lookup_key: 'pro_monthly' })).json()).toEqual({ message: 'Subscription updated' });
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'pro' });
    const customer = store().subscriptions.get(subscriptionId)!.customer;
    const live = [...store().subscriptions.values()].filter((s) => s.customer === customer && s.status !== 'canceled');
    expect(live.map((s) => s.id)).toEqual([subscriptionId]);
    expect(live[0]!.items.data[0].price.lookup_key).toBe('pro_monthly');
  });

  it('starts over when Stripe no longer knows the stored customer or subscription (new keys, other account)', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const { subscriptionId } = await subscribe(stack, cookie, 'plus_monthly');
    const oldCustomer = store().subscriptions.get(subscriptionId)!.customer as string;
    store().subscriptions.delete(subscriptionId);
    store().customers.delete(oldCustomer);

    // Billing portal without a checkout: a sentence, not a provider outage.
    const portalReply = await portal(cookie, '');
    expect(portalReply.status).toBe(400);
    expect(await portalReply.text()).toMatch(/no billing account yet/);
    // A plan change goes through a new checkout for a new customer; the lost subscription leaves the account free.
    const reply = (await (await checkout(cookie, { lookup_key: 'pro_monthly' })).json()) as { url?: string };
    expect(reply.url).toBeDefined();
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'free' });
    const session = store().sessions.get(new URL(reply.url!).pathname.split('/').pop()!)!;
    expect(session.customer).not.toBe(oldCustomer);
    expect(store().customers.has(session.customer as string)).toBe(true);

    const other = await createSignedInUser(stack.db.sql);
    const lost = await subscribe(stack, other.cookie, 'pro_monthly');
    store().subscriptions.delete(lost.subscriptionId);
    const cancel = await appFetch(stack, other.cookie, '/cancel-subscription', { method: 'POST' }).then((r) => r.json());
    expect(cancel).toEqual({ success: true, message: 'Subscription canceled. You are now on the Free plan.' });
    expect(await getBillingJson(stack, other.cookie)).toMatchObject({ subscription_tier: 'free' });
  });

  it("opens the portal for the user's own checkout session and refuses someone else's", async () => {
    const alice = await createSignedInUser(stack.db.sql);
    const bob = await createSignedInUser(stack.db.sql);
    const { sessionId } = await subscribe(stack, alice.cookie, 'plus_monthly');
    await subscribe(stack, bob.cookie, 'plus_monthly');

    const own = await portal(alice.cookie, sessionId);
    expect(own.status).toBe(303);
    const location = own.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${stack.standins.url}/portal/bps_`));
    const portalSession = store().portalSessions.get(location.split('/').pop()!)!;
    expect(portalSession.customer).toBe(store().sessions.get(sessionId)!.customer);

    const stolen = await portal(bob.cookie, sessionId);
    expect(stolen.status).toBe(403);
    expect(await stolen.text()).toMatch(/another account/);
    expect((await portal(null, sessionId)).status).toBe(401);
    expect((await portal(alice.cookie, 'cs_test_nope')).status).toBe(404);

    // Without a session id (the payment-failed banner): the portal of the user's own customer, or a sentence.
    const banner = await portal(alice.cookie, '');
    expect(banner.status).toBe(303);
    const bannerSession = store().portalSessions.get(banner.headers.get('location')!.split('/').pop()!)!;
    expect(bannerSession.customer).toBe(store().sessions.get(sessionId)!.customer);
    const carol = await createSignedInUser(stack.db.sql);
    const none = await portal(carol.cookie, '');
    expect(none.status).toBe(400);
    expect(await none.text()).toBe('You have no billing account yet. Choose the Plus or Pro plan first.');
  });

  it('refuses a plan change posted from another site', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const res = await appFetch(stack, cookie, '/create-checkout-session', {
      method: 'POST',
      body: JSON.stringify({ lookup_key: 'plus_monthly' }),
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
  });
});
