import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_KINDS, type WebhookDelivery, webhookDeliverySchema } from '../core/contract/webhook-delivery';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { fireScheduled } from './support/runs';
import { useSearches } from './support/billing';
import { startWebhookReceiver } from './support/webhook-receiver';

/**
 * Every webhook kind the OpenAPI document lists (digest, paused, out-of-searches) is sent by the real run path
 * when it happens, and each arrives verified by the official Standard Webhooks library with the timer's secret.
 */
describe('each documented webhook kind arrives, signed', () => {
  let stack: TestStack;
  const receiver = startWebhookReceiver();
  let hookUrl: string;
  beforeAll(async () => {
    const port = await receiver.listen();
    hookUrl = `http://127.0.0.1:${port}/hook`;
    stack = await startTestStack({ env: { WEBHOOK_ALLOW: `127.0.0.1:${port}` } });
    await stack.startDeliveries();
  });
  afterAll(async () => {
    await stack?.close();
    await receiver.close();
  });

  /** A signed-in user's timer with a webhook; returns its id, its signing secret and its owner. */
  async function timerWithWebhook(ques: string, web = '') {
    const { cookie, user } = await createSignedInUser(stack.db.sql);
    const call = (method: string, path: string, body: unknown) =>
      fetch(`${stack.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', cookie, origin: stack.url },
        body: JSON.stringify(body),
      });
    const made = await call('POST', '/api/schedule', dailyTimer({ ques, web }));
    expect(made.status).toBe(200);
    const id = ((await made.json()) as { id: number }).id;
    const set = await call('PATCH', `/api/timers/${id}`, { webhook_url: hookUrl, email: false });
    expect(set.status).toBe(200);
    const secret = ((await set.json()) as { webhook_secret: string }).webhook_secret;
    expect(secret).toMatch(/^whsec_/);
    return { id, secret, userId: user.id };
  }

  /** A scheduled fire of the timer through the worker's run processor, as BullMQ hands it over. */
  function fire(timerId: number, day: number) {
    return fireScheduled(stack, timerId, { at: Date.UTC(2026, 6, day, 7) }).catch((err: Error) => err.message);
  }

  /** The delivery of `kind` for the timer, verified with `secret` by the official library (which throws on a bad one). */
  const arrived = (timerId: number, kind: string, secret: string) =>
    until(
      `the ${kind} webhook of timer ${timerId}`,
      () => {
        const r = receiver.received.find((x) => {
          const body = JSON.parse(x.raw) as WebhookDelivery;
          return body.timer.id === timerId && body.kind === kind;
        });
        if (!r) return undefined;
        const delivery = new Webhook(secret).verify(r.raw, r.headers as Record<string, string>) as WebhookDelivery;
        return { delivery, raw: r.raw, headers: r.headers as Record<string, string> };
      },
      30_000,
    );

  it('sends digest, paused and out-of-searches, each verifiable and matching the documented body', async () => {
    const sent = new Set<string>();

    // A page whose events stay a few weeks ahead, so the digest keeps them.
    const news = await timerWithWebhook('AI events in Berlin', `${stack.standins.url}/sites/changing/webhook-kinds.html`);
    expect(await fire(news.id, 1)).toBe('succeeded');
    const digest = await arrived(news.id, 'digest', news.secret);
    expect(digest.delivery.events.length).toBeGreaterThan(0);
    expect(digest.delivery.run.new_count).toBe(digest.delivery.events.length);
    sent.add(digest.delivery.kind);

    const failing = await timerWithWebhook('AI events nowhere', `${stack.standins.url}/sites/berlin-ai.html`);
    await stack.db.sql`update timers set website = 'http://10.0.0.1/' where id = ${failing.id}`;
    for (const day of [1, 2, 3]) await fire(failing.id, day);
    const paused = await arrived(failing.id, 'paused', failing.secret);
    expect(paused.delivery.text).toContain('paused itself');
    sent.add(paused.delivery.kind);

    const broke = await timerWithWebhook('AI events on a budget');
    await useSearches(stack, broke.userId, 1000);
    expect(await fire(broke.id, 1)).toBe('skipped');
    const skipped = await arrived(broke.id, 'out-of-searches', broke.secret);
    expect(skipped.delivery.text).toContain('no searches left');
    sent.add(skipped.delivery.kind);
    // Once per timer and allowance period: the next skipped run sends nothing more.
    expect(await fire(broke.id, 2)).toBe('skipped');

    for (const { delivery } of [digest, paused, skipped]) expect(webhookDeliverySchema.parse(delivery)).toEqual(delivery);
    // A delivery signed with another secret is refused by the library.
    expect(() => new Webhook(news.secret).verify(skipped.raw, skipped.headers)).toThrow();
    expect([...sent].sort()).toEqual([...WEBHOOK_KINDS].sort());
    const [notices] = await stack.db.sql<{ n: number }[]>`
      select count(*)::int as n from deliveries where timer_id = ${broke.id} and kind = 'out-of-searches' and channel = 'webhook'`;
    expect(notices!.n).toBe(1);
  }, 120_000);
});
