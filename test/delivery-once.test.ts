import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../core/contract/event';
import { createMailer } from '../core/delivery/mailer';
import { DELIVERY_ATTEMPTS } from '../core/delivery/queue';
import type { DeliverJob } from '../core/jobs';
import { getDeliveryStatus, recordDelivery } from '../db/deliveries';
import { getTimer } from '../db/timers';
import { createDeliverProcessor } from '../worker/jobs/deliver';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';

/** A webhook receiver on 127.0.0.1 that records every POST; `slowNext` holds the next replies back. */
function startReceiver() {
  const received: { raw: string; headers: IncomingMessage['headers'] }[] = [];
  let slow = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ raw, headers: req.headers });
      const reply = () => res.writeHead(200).end('ok');
      if (slow > 0) {
        slow--;
        setTimeout(reply, 1500).unref();
      } else reply();
    });
  });
  return {
    received,
    slowNext: (n: number) => {
      slow += n;
    },
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const event: Event = {
  key: 'https://example.org/e/1',
  title: 'Applied ML Summit',
  starts_at: '2026-12-03T18:30:00+01:00',
  ends_at: null,
  all_day: false,
  timezone: 'Europe/Berlin',
  timezone_source: 'source',
  venue: null,
  city: 'Berlin',
  online: false,
  url: 'https://example.org/e/1',
  source_url: null,
  status: 'scheduled',
  verification: null,
  new: true,
};

/** Verifies a Standard Webhooks signature by the spec's recipe, independently of the code under test. */
function verifies(secret: string, headers: IncomingMessage['headers'], raw: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${raw}`).digest('base64');
  return String(headers['webhook-signature'])
    .split(' ')
    .some((s) => s === `v1,${expected}`);
}

// docs/decisions/delivery.md: deliveries are at least once with a stable id, signed, to the target recorded
// with them, retried for hours; a stuck 'sending' row is recovered; a final failure is visible.
describe('deliveries with a stable identity', () => {
  let stack: TestStack;
  const a = startReceiver();
  const b = startReceiver();
  let urlA: string;
  let urlB: string;
  let cookie: string;
  let scheduled = Date.UTC(2026, 10, 1);
  beforeAll(async () => {
    const [portA, portB] = [await a.listen(), await b.listen()];
    urlA = `http://127.0.0.1:${portA}/hook`;
    urlB = `http://127.0.0.1:${portB}/hook`;
    stack = await startTestStack({ env: { WEBHOOK_ALLOW: `127.0.0.1:${portA},127.0.0.1:${portB}` } });
    const signedIn = await createSignedInUser(stack.db.sql);
    cookie = signedIn.cookie;
  });
  afterAll(async () => {
    await stack?.close();
    await a.close();
    await b.close();
  });

  const patch = async (timerId: number, body: unknown) => {
    const res = await fetch(`${stack.url}/api/timers/${timerId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', cookie, origin: stack.url },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { webhook_secret?: string; last_delivery: Record<string, { status: string; error: string | null }> };
  };
  const newTimer = async (ques: string) => {
    const res = await fetch(`${stack.url}/api/schedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: stack.url },
      body: JSON.stringify(dailyTimer({ ques })),
    });
    return ((await res.json()) as { id: number }).id;
  };
  const record = async (timerId: number, channel: 'email' | 'webhook') => {
    scheduled += 3_600_000;
    const [run] = await stack.db.sql<{ id: string }[]>`
      insert into timer_runs (timer_id, scheduled_for, status, finished_at)
      values (${timerId}, ${new Date(scheduled)}, 'succeeded', now()) returning id`;
    const timer = (await getTimer(stack.db.sql, timerId))!;
    return (await recordDelivery(stack.db.sql, {
      timerId,
      runId: Number(run!.id),
      userId: timer.userId,
      channel,
      kind: 'digest',
      events: [event],
    }))!;
  };
  const processor = () =>
    createDeliverProcessor({
      sql: stack.db.sql,
      config: stack.config,
      logger: stack.deps.logger,
      mailer: createMailer(stack.config),
      webhookTimeoutMs: 500,
    });
  const attempt = (id: number, attemptsMade: number) =>
    ({ id: `delivery-${id}`, data: { deliveryId: id }, attemptsMade, opts: { attempts: DELIVERY_ATTEMPTS } }) as unknown as Job<DeliverJob>;

  it('a webhook slower than the timeout gets the same webhook-id, signed with the secret shown once', async () => {
    const timerId = await newTimer('Slow receiver');
    const saved = await patch(timerId, { webhook_url: urlA, email: false });
    const secret = saved.webhook_secret!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Shown once: saving the same address again returns no secret; another address gets a new one.
    expect((await patch(timerId, { webhook_url: urlA })).webhook_secret).toBeUndefined();

    const id = await record(timerId, 'webhook');
    const process = processor();
    const before = a.received.length;
    a.slowNext(1);
    await expect(process(attempt(id, 0))).rejects.toThrow(/did not answer within/);
    // Waiting for its retry, not failed: 'failed' is kept for a delivery that will not be tried again.
    expect(await getDeliveryStatus(stack.db.sql, id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await process(attempt(id, 1))).toBe('sent');
    await until('the slow POST to arrive too', async () => a.received.length - before >= 2);
    const posts = a.received.slice(before);
    expect(posts).toHaveLength(2);
    expect(posts[0]!.headers['webhook-id']).toBe(`msg_delivery_${id}`);
    expect(posts[1]!.headers['webhook-id']).toBe(posts[0]!.headers['webhook-id']);
    for (const post of posts) {
      expect(Math.abs(Number(post.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(verifies(secret, post.headers, post.raw)).toBe(true);
      expect(verifies(`whsec_${Buffer.alloc(32).toString('base64')}`, post.headers, post.raw)).toBe(false);
    }
  });

  it('a retry goes to the address recorded with the delivery, not to the one saved since', async () => {
    const timerId = await newTimer('Moved receiver');
    await patch(timerId, { webhook_url: urlA, email: false });
    const id = await record(timerId, 'webhook');
    const fresh = await patch(timerId, { webhook_url: urlB });
    expect(fresh.webhook_secret).toMatch(/^whsec_/);
    const [beforeA, beforeB] = [a.received.length, b.received.length];
    expect(await processor()(attempt(id, 0))).toBe('sent');
    expect(a.received.length - beforeA).toBe(1);
    expect(b.received.length - beforeB).toBe(0);
  });

  it('an SMTP server that drops the connection after accepting gets the message again with the same Message-ID', async () => {
    const timerId = await newTimer('Dropped after accept');
    const id = await record(timerId, 'email');
    const process = processor();
    stack.standins.smtp.dropAfterAcceptNext(1);
    await expect(process(attempt(id, 0))).rejects.toThrow();
    expect(await process(attempt(id, 1))).toBe('sent');
    const copies = stack.standins.smtp.messages.filter((m) => m.subject.includes('Dropped after accept'));
    expect(copies).toHaveLength(2);
    const host = new URL(stack.config.appUrl).hostname;
    expect(copies.map((m) => m.headers['message-id'])).toEqual([`<msg_delivery_${id}@${host}>`, `<msg_delivery_${id}@${host}>`]);
  });

  it('a delivery whose last attempt fails is failed for good and shown so in the timer row', async () => {
    const timerId = await newTimer('Final failure');
    await patch(timerId, { webhook_url: urlA, email: false });
    const id = await record(timerId, 'webhook');
    // A timeout is worth a retry, but this was the last attempt (about four hours after the first).
    a.slowNext(1);
    await expect(processor()(attempt(id, DELIVERY_ATTEMPTS - 1))).rejects.toThrow(/did not answer within/);
    expect(await getDeliveryStatus(stack.db.sql, id)).toMatchObject({ status: 'failed' });
    const listed = (await patch(timerId, { email: false })).last_delivery;
    expect(listed.webhook).toMatchObject({ status: 'failed', error: expect.stringMatching(/did not answer within/) });
  });

  it('a delivery left sending by a stopped worker is recovered by the sweep and sent', async () => {
    const timerId = await newTimer('Stuck sending');
    const id = await record(timerId, 'email');
    await stack.db.sql`update deliveries set status = 'sending', attempts = 1, updated_at = now() - interval '1 hour' where id = ${id}`;
    const deliveries = await stack.startDeliveries();
    await deliveries.sweep();
    await until('the recovered delivery to be sent', async () => (await getDeliveryStatus(stack.db.sql, id))?.status === 'sent');
    expect(stack.standins.smtp.messages.filter((m) => m.subject.includes('Stuck sending'))).toHaveLength(1);
  });
});
