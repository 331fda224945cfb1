import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFetch, getBillingJson, subscribe, useSearches } from './support/billing';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';

describe('POST /webhook', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  const stripe = () => stack.standins.stripe;
  const post = (body: string, signature?: string) =>
    appFetch(stack, null, '/webhook', {
      method: 'POST',
      body,
      headers: signature ? { 'stripe-signature': signature } : {},
    });
  const eventCount = async () => Number((await stack.db.sql`select count(*)::int as n from stripe_events`)[0]!.n);

  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const { events } = await subscribe(stack, cookie, 'plus_monthly', false);
    const before = await eventCount();
    for (const event of events) {
      const body = JSON.stringify(event);
      expect((await post(body)).status).toBe(400);
      expect((await post(body, 't=1,v1=deadbeef')).status).toBe(400);
      // Signed for another body: a tampered payload.
      expect((await post(body, stripe().sign(body.replace('plus', 'pro')))).status).toBe(400);
      // Correct signature but too old (Stripe's 5-minute tolerance against replays).
      expect((await post(body, stripe().sign(body, Math.floor(Date.now() / 1000) - 3600))).status).toBe(400);
    }
    expect(await eventCount()).toBe(before);
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'free', credits: 10 });
  });

  it('applies a redelivered event once, even when the copies arrive together', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const { subscriptionId } = await subscribe(stack, cookie, 'plus_monthly');
    const renewal = stripe().renew(subscriptionId, false);
    const paid = renewal.events.find((e) => e.type === 'invoice.paid')!;
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => post(JSON.stringify(paid), stripe().sign(JSON.stringify(paid))).then((r) => r.json())),
    );
    expect(replies.map((r) => r.outcome).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'renewed']);
    await useSearches(stack, user.id, 4);
    expect(await stripe().deliver(paid)).toBe(200);
    expect((await getBillingJson(stack, cookie)).credits).toBe(46);
    const rows = await stack.db.sql`select id from stripe_events where id = ${paid.id}`;
    expect(rows).toHaveLength(1);
  });

  it('follows the current subscription state when customer.subscription.updated arrives before created', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const { subscriptionId, events } = await subscribe(stack, cookie, 'plus_monthly', false);
    const failed = stripe().failRenewal(subscriptionId, false);
    const updated = failed.events.find((e) => e.type === 'customer.subscription.updated')!;
    const created = events.find((e) => e.type === 'customer.subscription.created')!;
    expect(await stripe().deliver(updated)).toBe(200);
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'plus', subscription_status: 'payment failed' });
    // The older 'created' payload says active; the account keeps following Stripe's current state.
    expect(await stripe().deliver(created)).toBe(200);
    for (const event of events) expect(await stripe().deliver(event)).toBe(200);
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'plus', subscription_status: 'payment failed' });
  });

  it('starts a new allowance on a paid renewal, not on a failed one', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const { subscriptionId } = await subscribe(stack, cookie, 'plus_monthly');
    await useSearches(stack, user.id, 7);
    const first = await getBillingJson(stack, cookie);
    expect(first).toMatchObject({ subscription_tier: 'plus', credits: 43, allowance: 50, subscription_status: 'active' });

    await stripe().failRenewal(subscriptionId).delivered;
    expect(await getBillingJson(stack, cookie)).toMatchObject({ credits: 43, subscription_status: 'payment failed' });

    await stripe().renew(subscriptionId).delivered;
    const renewed = await getBillingJson(stack, cookie);
    expect(renewed).toMatchObject({ subscription_tier: 'plus', credits: 50, subscription_status: 'active' });
    expect(new Date(renewed.period_end).getTime()).toBeGreaterThan(new Date(first.period_end).getTime());

    await useSearches(stack, user.id, 2);
    await stripe().renew(subscriptionId).delivered;
    expect((await getBillingJson(stack, cookie)).credits).toBe(50);
  });

  it('returns the account to free when the subscription is canceled in Stripe', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const { subscriptionId } = await subscribe(stack, cookie, 'pro_monthly');
    await useSearches(stack, user.id, 4);
    await stack.deps.stripe.subscriptions.cancel(subscriptionId);
    await stripe().idle();
    expect(await getBillingJson(stack, cookie)).toMatchObject({ subscription_tier: 'free', credits: 6, subscription_status: 'active' });
  });

  it('answers 200 to events it does not act on', async () => {
    const event = {
      id: 'evt_unknown_1',
      object: 'event',
      type: 'charge.refunded',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'ch_1', object: 'charge' } },
    };
    const body = JSON.stringify(event);
    const res = await post(body, stripe().sign(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, outcome: 'ignored' });
  });
});
