import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registry } from '../core/metrics';
import { WORKER_DIED_ERROR } from '../core/timers/worker-deaths';
import { insertTimer } from '../db/timers';
import { HOSTILE_SITES } from '../dev/harness/hostile-sites';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';
import { fireScheduled } from './support/runs';

/** A metric of this process (the stack's api runs in it) as a number. */
const metric = async (name: string) => (await registry.getSingleMetric(name)!.get()).values.reduce((sum, v) => sum + v.value, 0);

const UNREAD = /could not be read in time/;

// Pages and calendars that stalled the api for every user while one was parsed (a custom VTIMEZONE changing every
// minute since 1970, a thousand series under one UID, …), each read as a user's website through the real api.
describe('a hostile website costs only its own reading', () => {
  let stack: TestStack;
  let site: Server;
  let siteUrl: string;
  beforeAll(async () => {
    const bodies = HOSTILE_SITES.map((s) => s.body());
    site = createServer((req, res) => {
      const i = Number(req.url?.slice(1));
      res.writeHead(200, { 'content-type': HOSTILE_SITES[i]!.contentType }).end(bodies[i]);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${port}`;
    stack = await startTestStack({ env: { WEBSITE_FETCH_ALLOW: `127.0.0.1:${port}`, USER_RATE_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it.each(HOSTILE_SITES.map((s, i) => ({ ...s, i })))(
    '$name: another user is answered while it is read, and its own ask is answered',
    { timeout: 120_000 },
    async ({ i, quick }) => {
      const hostile = await createSignedInUser(stack.db.sql);
      const bystander = await createSignedInUser(stack.db.sql);
      const overBefore = await metric('website_readings_over_limit_total');
      const readBefore = await metric('website_readings_total');
      const reply = ask(stack.url, hostile.cookie, { ques: 'What is on this month?', web: `${siteUrl}/${i}` }).then(async (r) => ({
        status: r.status,
        text: await r.text(),
      }));
      // The reading has been handed to the pool: from here on it is parsed while the api serves others. A quick
      // one may be over before a look sees it in flight.
      const handedOver = async () =>
        (await metric('website_readings_in_flight')) > 0 || (await metric('website_readings_total')) > readBefore;
      await vi.waitFor(async () => expect(await handedOver()).toBe(true), { timeout: 60_000, interval: 2 });
      const doneBefore = await metric('website_readings_total');
      const session = await fetch(`${stack.url}/api/check-session`, { headers: { cookie: bystander.cookie } });
      expect(session.status).toBe(200);
      expect(await session.json()).toEqual({ loggedIn: true });
      // Answered while the hostile reading was still going (it ran on a reading thread, not the api's).
      if (!quick) expect(await metric('website_readings_total')).toBe(doneBefore);
      const answered = await reply;
      expect(answered.status).toBe(200);
      expect(answered.text.length).toBeGreaterThan(0);
      // A reading stopped at a limit is said in the answer, once; one read in time is not.
      const stopped = (await metric('website_readings_over_limit_total')) - overBefore;
      expect(UNREAD.test(answered.text)).toBe(stopped > 0);
    },
  );

  it('the api still answers after all of them', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    expect((await fetch(`${stack.url}/api/check-session`, { headers: { cookie } })).status).toBe(200);
  });

  it('a timer run whose worker died twice while running it fails with a sentence instead of running a third time', async () => {
    const { user } = await createSignedInUser(stack.db.sql);
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI meetups', web: `${siteUrl}/0` }));
    // As BullMQ hands a job back after the worker running it stopped twice (its lock lapsed, stalledCounter 2).
    const outcome = await fireScheduled(stack, timer.id, { at: Date.UTC(2026, 5, 1, 7), stalledCounter: 2 });
    expect(outcome).toBe('failed');
    const [run] = await stack.db.sql<{ status: string; error: string }[]>`
      select status, error from timer_runs where timer_id = ${timer.id}`;
    expect(run).toEqual({ status: 'failed', error: WORKER_DIED_ERROR });
  });
});
