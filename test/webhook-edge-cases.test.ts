import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFetch, getBillingJson, subscribe } from './support/billing';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';

// Signed events that are valid Stripe deliveries but cannot be applied: they must get a final answer, not a
// 500 that Stripe retries for three days.
describe('POST /webhook edge cases', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  const deliver = (event: Record<string, unknown>) => {
    const body = JSON.stringify(event);
    return appFetch(stack, null, '/webhook', {
      method: 'POST',
      body,
      headers: { 'stripe-signature': stack.standins.stripe.sign(body) },
    });
  };
  const recorded = async (id: string) => (await stack.db.sql`select type from stripe_events where id = ${id}`).length;

  it('records an event about a subscription Stripe does not know and answers 200 ignored, changing nothing', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const { events } = await subscribe(stack, cookie, 'plus_monthly');
    const created = events.find((e) => e.type === 'customer.subscription.created')!;
    const customer = String(created.data.object.customer);
    const before = await getBillingJson(stack, cookie);
    const event = {
      id: `evt_missing_${Date.now()}`,
      object: 'event',
      type: 'customer.subscription.updated',
      created: Math.floor(Date.now() / 1000),
      // The user's own customer, so the handler gets as far as asking Stripe, which has no such subscription.
      data: { object: { id: 'sub_unknown_to_stripe', object: 'subscription', customer } },
    };
    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await recorded(event.id)).toBe(1);
    expect(await getBillingJson(stack, cookie)).toEqual(before);
    // Stripe's retry is a duplicate now, not another failure.
    expect(await (await deliver(event)).json()).toEqual({ received: true, outcome: 'duplicate' });
  });

  it('refuses a signed event without an id with 400 {error} and records nothing', async () => {
    const before = Number((await stack.db.sql`select count(*)::int as n from stripe_events`)[0]!.n);
    const res = await deliver({
      object: 'event',
      type: 'invoice.paid',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'in_1', object: 'invoice' } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'The Stripe event has no id, type or created time, so it was not applied.' });
    expect(Number((await stack.db.sql`select count(*)::int as n from stripe_events`)[0]!.n)).toBe(before);
  });
});
