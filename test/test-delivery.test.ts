import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { testDeliveryReplySchema, timerPreviewReplySchema, type TimerPreviewReply } from '../core/contract/test-delivery';
import { type WebhookDelivery, webhookDeliverySchema } from '../core/contract/webhook-delivery';
import { createMailer, type Mailer } from '../core/delivery/mailer';
import { testEmailNotice } from '../core/delivery/test-message';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { fireScheduled } from './support/runs';
import { pageCalls } from './support/page-calls';
import { startWebhookReceiver } from './support/webhook-receiver';

/**
 * The timer page's preview and "Send a test": built from the last run by the real message code, sent now to the
 * SMTP stand-in and a real loopback receiver that verifies the signature, with the receiver's refusals in words,
 * rate-limited per user, and costing nothing: no search, no run, no delivery row, no event marked as seen.
 */
describe('preview and test send of a timer’s digest', () => {
  let stack: TestStack;
  const receiver = startWebhookReceiver();
  let hookUrl: string;
  beforeAll(async () => {
    const port = await receiver.listen();
    hookUrl = `http://127.0.0.1:${port}/hook`;
    stack = await startTestStack({ env: { WEBHOOK_ALLOW: `127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await stack?.close();
    await receiver.close();
  });

  async function owner() {
    const { cookie, user } = await createSignedInUser(stack.db.sql);
    const { call } = pageCalls(() => ({ url: stack.url, cookie }));
    return { cookie, user, call };
  }

  /** A timer with a webhook; its id and signing secret. */
  async function timerWithWebhook(call: Awaited<ReturnType<typeof owner>>['call'], ques: string) {
    const made = await call('POST', '/api/schedule', dailyTimer({ ques, web: `${stack.standins.url}/sites/changing/test-delivery.html` }));
    expect(made.status).toBe(200);
    const id = ((await made.json()) as { id: number }).id;
    const set = await call('PATCH', `/api/timers/${id}`, { webhook_url: hookUrl });
    expect(set.status).toBe(200);
    return { id, secret: ((await set.json()) as { webhook_secret: string }).webhook_secret };
  }

  /** A scheduled fire of the timer through the worker's run processor. */
  async function fire(timerId: number) {
    expect(await fireScheduled(stack, timerId)).toBe('succeeded');
  }

  async function preview(call: Awaited<ReturnType<typeof owner>>['call'], id: number): Promise<TimerPreviewReply> {
    const res = await call('GET', `/api/timers/${id}/preview`);
    expect(res.status).toBe(200);
    return timerPreviewReplySchema.parse(await res.json());
  }

  async function test(call: Awaited<ReturnType<typeof owner>>['call'], id: number, destination: string) {
    const res = await call('POST', `/api/timers/${id}/test-delivery`, { destination });
    expect(res.status).toBe(200);
    return testDeliveryReplySchema.parse(await res.json());
  }

  /** What a test must leave alone: runs, deliveries, the timer's event memory, the searches used. */
  async function footprint(timerId: number, userId: number) {
    const [row] = await stack.db.sql<{ runs: number; deliveries: number; seen: number; searches: number }[]>`
      select (select count(*)::int from timer_runs where timer_id = ${timerId}) as runs,
             (select count(*)::int from deliveries where timer_id = ${timerId}) as deliveries,
             (select count(*)::int from timer_events where timer_id = ${timerId}) as seen,
             (select count(*)::int from searches where user_id = ${userId}) as searches`;
    return row!;
  }

  it('previews the next digest from the last run and sends marked tests that match it, changing nothing', async () => {
    const { call, user } = await owner();
    const timer = await timerWithWebhook(call, 'AI meetups to test');

    // Before the first run: said so, nothing to show, and a test still checks the address.
    const before = await preview(call, timer.id);
    expect(before.basis).toBe('no-run');
    expect(before.note).toBe('No run yet: the preview appears after the first run.');
    expect(before.destinations.map((d) => [d.destination, d.unavailable, d.preview])).toEqual([
      ['email', null, null],
      ['webhook', null, null],
    ]);
    const early = await test(call, timer.id, 'email');
    expect(early.delivered).toBe(true);
    await stack.standins.smtp.waitFor((m) => m.envelope.to.includes(user.email) && m.subject.startsWith('[Test] '));

    await fire(timer.id);
    const shown = await preview(call, timer.id);
    expect(shown.basis).toBe('news');
    const email = shown.destinations.find((d) => d.destination === 'email')!.preview;
    const hook = shown.destinations.find((d) => d.destination === 'webhook')!.preview;
    if (email?.format !== 'email' || hook?.format !== 'json') throw new Error('the preview lacks the email or the webhook body');
    expect(email.subject).toMatch(/^\d+ new events?: AI meetups to test$/);
    expect(email.to).toBe(user.email);
    const previewBody = webhookDeliverySchema.parse(hook.body);
    expect(previewBody.events.length).toBeGreaterThan(0);
    expect(previewBody.test).toBeUndefined();

    const left = await footprint(timer.id, user.id);

    const mailed = await test(call, timer.id, 'email');
    expect(mailed).toEqual({
      destination: 'email',
      delivered: true,
      message: `Delivered: the mail server accepted the test for ${user.email}.`,
    });
    const mail = await stack.standins.smtp.waitFor((m) => m.subject === `[Test] ${email.subject}`);
    expect(mail.text.startsWith(`${email.subject}\n\n${testEmailNotice(true)}`)).toBe(true);
    expect(mail.headers['message-id']).toMatch(/^<msg_test_[0-9a-f-]+@/);
    // The same digest as the preview, less the test's line and its own unsubscribe link.
    const withoutLinks = (text: string) => text.replace(/\/unsubscribe\/\S+/g, '/unsubscribe/…');
    expect(withoutLinks(mail.text.replace(`\n\n${testEmailNotice(true)}\n`, ''))).toBe(withoutLinks(email.text));

    const hooked = await test(call, timer.id, 'webhook');
    expect(hooked.delivered).toBe(true);
    expect(hooked.message).toMatch(/^Delivered: the webhook at 127\.0\.0\.1:\d+ answered HTTP 200\.$/);
    const arrived = receiver.received.at(-1)!;
    // Signed as every delivery is: the official library verifies it with the timer's secret.
    const body = new Webhook(timer.secret).verify(arrived.raw, arrived.headers as Record<string, string>) as WebhookDelivery;
    expect(arrived.headers['webhook-id']).toMatch(/^msg_test_/);
    expect(webhookDeliverySchema.parse(body)).toEqual(body);
    expect(body.test).toBe(true);
    expect(body.kind).toBe('digest');
    expect(body.text).toBe(`[Test] ${previewBody.text}`);
    expect(body.events).toEqual(previewBody.events);
    expect(body.run).toEqual(previewBody.run);

    // No search, no run, no delivery, nothing marked as seen.
    expect(await footprint(timer.id, user.id)).toEqual(left);
  }, 120_000);

  it('says what the receiver answered when it refuses, and stops a user after five tests in ten minutes', async () => {
    const { call } = await owner();
    const timer = await timerWithWebhook(call, 'AI meetups refused');

    receiver.answer(500, 'receiver is down for maintenance');
    const refused = await test(call, timer.id, 'webhook');
    expect(refused.delivered).toBe(false);
    expect(refused.message).toMatch(/^The webhook at 127\.0\.0\.1:\d+ answered HTTP 500: "receiver is down for maintenance"\.$/);

    receiver.answer(410, '');
    const gone = await test(call, timer.id, 'webhook');
    expect(gone.message).toMatch(/answered HTTP 410 Gone: the address no longer exists\. Save a new one\.$/);
    // A test changes nothing on the timer: the webhook stays.
    const [kept] = await stack.db.sql<{ webhook_url: string | null }[]>`select webhook_url from timers where id = ${timer.id}`;
    expect(kept!.webhook_url).toBe(hookUrl);

    stack.standins.smtp.refuseNext(1, 550, 'No such mailbox here');
    const bounced = await test(call, timer.id, 'email');
    expect(bounced.delivered).toBe(false);
    expect(bounced.message).toContain('The mail server refused the message: 550 No such mailbox here');

    // Without a destination to send to: a sentence saying what to do (and the rate still counts it).
    expect((await call('PATCH', `/api/timers/${timer.id}`, { email: false })).status).toBe(200);
    const off = await call('POST', `/api/timers/${timer.id}/test-delivery`, { destination: 'email' });
    expect(off.status).toBe(400);
    expect(((await off.json()) as { error: string }).error).toBe(
      'Email is turned off for this timer. Turn it on under Notifications to send a test.',
    );

    expect((await test(call, timer.id, 'webhook')).delivered).toBe(true);
    const sixth = await call('POST', `/api/timers/${timer.id}/test-delivery`, { destination: 'webhook' });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await sixth.json()) as { error: string }).error).toMatch(
      /^You have sent 5 tests in the last 10 minutes\. Please wait \d+ minutes? before sending another; the timer’s own messages go out as usual\.$/,
    );
  }, 120_000);

  it('sends a test through /v1 and MCP with a token', async () => {
    const { call, cookie } = await owner();
    const timer = await timerWithWebhook(call, 'AI meetups from an agent');
    const made = await fetch(`${stack.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, origin: stack.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Agent', scopes: ['read', 'timers'] }),
    });
    const token = createdApiTokenReplySchema.parse(await made.json()).token;
    const v1 = (method: string, path: string, body?: unknown) =>
      fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const shown = await v1('GET', `/v1/timers/${timer.id}/preview`);
    expect(timerPreviewReplySchema.parse(await shown.json()).basis).toBe('no-run');
    const sent = await v1('POST', `/v1/timers/${timer.id}/test-delivery`, { destination: 'webhook' });
    expect(sent.status).toBe(200);
    expect(testDeliveryReplySchema.parse(await sent.json()).delivered).toBe(true);
    const wrong = await v1('POST', `/v1/timers/${timer.id}/test-delivery`, { destination: 'pager' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { detail: string }).detail).toBe(
      'Say where to send the test: "destination" is "email", "webhook" or "channel:<id>" (a channel’s id, as the timer’s channels list it).',
    );

    const client = new Client({ name: 'event-finder-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    try {
      const result = await client.callTool({ name: 'send_test_delivery', arguments: { timer_id: timer.id, destination: 'email' } });
      expect(result.isError).toBeFalsy();
      expect(testDeliveryReplySchema.parse(result.structuredContent).delivered).toBe(true);
      expect((result.content as { text: string }[])[1]!.text).toMatch(/^Delivered: the mail server accepted the test for /);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('sends the page’s, /v1’s and account deletion’s emails through the one mailer the api was given', async () => {
    // The real SMTP mailer, noting what goes through it: an app given it must send every email with it.
    const smtp = createMailer(stack.config)!;
    const sentThrough: string[] = [];
    const mailer: Mailer = {
      send: (email) => {
        sentThrough.push(email.subject);
        return smtp.send(email);
      },
      close: () => smtp.close(),
    };
    const app = createApp({ ...stack.deps, mailer });
    const { call, cookie, user } = await owner();
    const timer = await timerWithWebhook(call, 'AI meetups through one mailer');
    const made = await call('POST', '/api/tokens', { name: 'Agent', scopes: ['read', 'timers'] });
    const token = createdApiTokenReplySchema.parse(await made.json()).token;
    const send = (path: string, headers: Record<string, string>) =>
      app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ destination: 'email' }),
      });

    const page = await send(`/api/timers/${timer.id}/test-delivery`, { cookie, origin: stack.url });
    expect(testDeliveryReplySchema.parse(await page.json()).delivered).toBe(true);
    const v1 = await send(`/v1/timers/${timer.id}/test-delivery`, { authorization: `Bearer ${token}` });
    expect(testDeliveryReplySchema.parse(await v1.json()).delivered).toBe(true);
    const deleted = await app.request('/api/account', { method: 'DELETE', headers: { cookie, origin: stack.url } });
    expect(deleted.status).toBe(200);

    expect(sentThrough).toEqual([
      expect.stringMatching(/^\[Test\] /),
      expect.stringMatching(/^\[Test\] /),
      'Your Event Finder account is deleted',
    ]);
    await stack.standins.smtp.waitFor((m) => m.envelope.to.includes(user.email) && m.subject === 'Your Event Finder account is deleted');
    mailer.close();
  }, 120_000);
});
