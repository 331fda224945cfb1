import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../core/contract/event';
import { afterTimerRun, type AfterRunDeps, type RunOutcome } from '../core/timers/after-run';
import { createMailer } from '../core/delivery/mailer';
import type { DeliverJob } from '../core/jobs';
import { schedulerId } from '../core/timers/scheduler';
import { getDeliveryStatus, recordDelivery } from '../db/deliveries';
import { recountFailures } from '../db/timer-delivery';
import { getTimer } from '../db/timers';
import { createDeliverProcessor } from '../worker/jobs/deliver';
import { reconcileSchedulers } from '../core/timers/reconcile';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';
import { fireScheduled } from './support/runs';

/** A local webhook receiver on 127.0.0.1: records every POST; `answer` sets the next status codes. */
function startReceiver() {
  const received: { body: unknown; headers: IncomingMessage['headers'] }[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      received.push({ body: JSON.parse(data || 'null'), headers: req.headers });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  return {
    received,
    answer: (...codes: number[]) => answers.push(...codes),
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// When the runs of these tests end: the events below are upcoming then, whenever the tests run.
const runTime = new Date('2026-11-25T12:00:00Z');

const event = (over: Partial<Event>): Event => ({
  key: 'https://example.org/e/1',
  title: 'Applied ML Summit',
  starts_at: '2026-12-03T18:30:00+01:00',
  ends_at: '2026-12-03T21:00:00+01:00',
  all_day: false,
  timezone: 'Europe/Berlin',
  timezone_source: null,
  venue: 'Kulturbrauerei',
  city: 'Berlin',
  online: false,
  url: 'https://example.org/e/1',
  source_url: 'https://example.org/events',
  status: 'scheduled',
  verification: null,
  new: true,
  ...over,
});

describe('delivery: email digests, webhooks, unsubscribe, auto-pause', () => {
  let stack: TestStack;
  const receiver = startReceiver();
  let receiverUrl: string;
  let cookie: string;
  let userEmail: string;
  let deps: AfterRunDeps;
  let scheduled = Date.UTC(2026, 10, 1);

  beforeAll(async () => {
    const port = await receiver.listen();
    receiverUrl = `http://127.0.0.1:${port}/hook`;
    stack = await startTestStack({ env: { WEBHOOK_ALLOW: `127.0.0.1:${port}` } });
    await stack.startDeliveries();
    const signedIn = await createSignedInUser(stack.db.sql);
    cookie = signedIn.cookie;
    userEmail = signedIn.user.email;
    deps = {
      sql: stack.db.sql,
      config: stack.config,
      logger: stack.deps.logger,
      timersQueue: stack.deps.timersQueue,
      deliveriesQueue: stack.deliveriesQueue,
      deliveryBackoffMs: 20,
    };
  });
  afterAll(async () => {
    await stack?.close();
    await receiver.close();
  });

  const api = (method: string, path: string, body?: unknown, as = cookie) =>
    fetch(`${stack.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', cookie: as },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const createTimer = async (ques: string) => {
    const res = await api('POST', '/api/schedule', dailyTimer({ ques }));
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: number }).id;
  };
  /** A finished run row, as the run path leaves it. */
  const finishedRun = async (timerId: number, status: 'succeeded' | 'failed' | 'skipped', error: string | null = null) => {
    scheduled += 3_600_000;
    const [row] = await stack.db.sql<{ id: string }[]>`
      insert into timer_runs (timer_id, scheduled_for, status, finished_at, error)
      values (${timerId}, ${new Date(scheduled)}, ${status}, now(), ${error}) returning id`;
    return Number(row!.id);
  };
  const endRun = async (timerId: number, outcome: RunOutcome, events: Event[] = [], error: string | null = null) => {
    const status = outcome === 'skipped-no-searches' ? 'skipped' : outcome;
    const runId = await finishedRun(timerId, status, error);
    const timer = (await getTimer(stack.db.sql, timerId))!;
    // The count the run's end brings back (db/timer-runs.ts endRun recounts the same way).
    const consecutiveFailures = await recountFailures(stack.db.sql, timerId);
    return {
      runId,
      ...(await afterTimerRun(deps, { timer, runId, outcome, newOrChangedEvents: events, error, now: runTime, consecutiveFailures })),
    };
  };
  const settled = (id: number) =>
    until(`delivery ${id} to finish`, async () => {
      const s = await getDeliveryStatus(stack.db.sql, id);
      return s && (s.status === 'sent' || s.status === 'skipped' || (s.status === 'failed' && s.attempts >= 6)) ? s : null;
    });
  const mailsAbout = (question: string) => stack.standins.smtp.messages.filter((m) => m.subject.includes(question));
  const fakeJob = (deliveryId: number) =>
    ({ id: `delivery-${deliveryId}`, data: { deliveryId }, attemptsMade: 0 }) as unknown as Job<DeliverJob>;

  it('sends exactly one email for a run with new events, with both unsubscribe headers and every event', async () => {
    const question = 'AI meetups in Berlin';
    const timerId = await createTimer(question);
    const events = [
      event({}),
      event({
        key: 'k2',
        title: 'Data Night',
        starts_at: '2026-12-10',
        ends_at: null,
        all_day: true,
        url: null,
        venue: null,
        city: null,
        online: true,
      }),
    ];
    const result = await endRun(timerId, 'succeeded', events);
    expect(result.deliveries).toHaveLength(1);
    expect((await settled(result.deliveries[0]!)).status).toBe('sent');

    const mails = mailsAbout(question);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.envelope.to).toEqual([userEmail]);
    expect(mail.subject).toBe(`2 new events: ${question}`);
    expect(mail.headers['list-unsubscribe']).toMatch(new RegExp(`^<${stack.url}/unsubscribe/[A-Za-z0-9_-]{43}>$`));
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain('Applied ML Summit');
      expect(part).toContain('Data Night');
      // 18:30 at +01:00 is 18:30 in the timer's zone (Europe/Berlin).
      expect(part).toContain('Thu 3 Dec 2026, 18:30');
      // An all-day event's day, in the same style.
      expect(part).toContain('Thu 10 Dec 2026');
      expect(part).toContain('Dates are in Europe/Berlin, the time zone of your timer.');
      expect(part).toContain('Kulturbrauerei, Berlin');
      expect(part).toContain('Online');
      expect(part).toContain('https://calendar.google.com/calendar/render?action=TEMPLATE');
      // "Read this run’s answer" opens the run the message is about.
      expect(part).toContain(`${stack.url}/#timer-${timerId}-run-${result.runId}`);
      expect(part).toContain('/unsubscribe/');
    }
    expect(mail.html).toContain('Add to calendar');
    expect(mail.html).toContain('dates=20261203T173000Z%2F20261203T200000Z');

    // The after-run step again for the same run (a duplicate execution) records and sends nothing more.
    const again = await afterTimerRun(deps, {
      timer: (await getTimer(stack.db.sql, timerId))!,
      runId: result.runId,
      outcome: 'succeeded',
      newOrChangedEvents: events,
      now: runTime,
      consecutiveFailures: 0,
    });
    expect(again.deliveries).toEqual([]);
    expect(mailsAbout(question)).toHaveLength(1);
  });

  it('sends nothing for a run with no new or changed events', async () => {
    const timerId = await createTimer('Quiet conferences');
    const result = await endRun(timerId, 'succeeded', []);
    expect(result.deliveries).toEqual([]);
    const [row] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from deliveries where run_id = ${result.runId}`;
    expect(row!.n).toBe(0);
  });

  it('leaves events that ended over 30 days before the run out of its digest, and sends nothing when only they are left', async () => {
    const question = 'Last year’s conferences';
    const timerId = await createTimer(question);
    const past = event({ key: 'past', title: 'Conference 2025', starts_at: '2025-11-20T09:00:00+01:00', ends_at: null });
    const pastOnly = await endRun(timerId, 'succeeded', [past]);
    expect(pastOnly.deliveries).toEqual([]);
    const mixed = await endRun(timerId, 'succeeded', [past, event({})]);
    expect(mixed.deliveries).toHaveLength(1);
    await settled(mixed.deliveries[0]!);
    const mails = mailsAbout(question);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`1 new event: ${question}`);
    expect(mails[0]!.text).not.toContain('Conference 2025');
  });

  it('records no email when the server has email off (production without SMTP_URL); webhooks still go', async () => {
    const timerId = await createTimer('Email off on this server');
    expect((await api('PATCH', `/api/timers/${timerId}`, { webhook_url: receiverUrl })).status).toBe(200);
    const emailOff = { ...deps, config: { ...stack.config, mail: { ...stack.config.mail, url: null } } };
    const runId = await finishedRun(timerId, 'succeeded');
    const timer = (await getTimer(stack.db.sql, timerId))!;
    const result = await afterTimerRun(emailOff, {
      timer,
      runId,
      outcome: 'succeeded',
      newOrChangedEvents: [event({})],
      now: runTime,
      consecutiveFailures: 0,
    });
    const channels = await stack.db.sql<{ channel: string }[]>`select channel from deliveries where run_id = ${runId}`;
    expect(channels.map((c) => c.channel)).toEqual(['webhook']);
    expect(await settled(result.deliveries[0]!)).toMatchObject({ status: 'sent' });
  });

  it('never sends a delivery twice: a second execution of the job, and a retry after an SMTP failure', async () => {
    const question = 'Retried digests';
    const timerId = await createTimer(question);
    const timer = (await getTimer(stack.db.sql, timerId))!;
    const runId = await finishedRun(timerId, 'succeeded');
    const id = (await recordDelivery(stack.db.sql, {
      timerId,
      runId,
      userId: timer.userId,
      channel: 'email',
      kind: 'digest',
      events: [event({})],
    }))!;
    const process = createDeliverProcessor({
      sql: stack.db.sql,
      config: stack.config,
      logger: stack.deps.logger,
      mailer: createMailer(stack.config),
    });
    expect(await process(fakeJob(id))).toBe('sent');
    expect(await process(fakeJob(id))).toBe('already-handled');
    expect(mailsAbout(question)).toHaveLength(1);

    // The mail server says "try later" once: BullMQ retries, and exactly one message arrives.
    stack.standins.smtp.refuseNext(1, 451);
    const retried = await endRun(timerId, 'succeeded', [event({ title: 'Second run event' })]);
    const state = await settled(retried.deliveries[0]!);
    expect(state).toMatchObject({ status: 'sent', attempts: 2 });
    expect(mailsAbout(question)).toHaveLength(2);
  });

  it('stops the next email after a one-click unsubscribe, and Undo turns it back on', async () => {
    const question = 'Unsubscribe me';
    const timerId = await createTimer(question);
    const first = await endRun(timerId, 'succeeded', [event({})]);
    await settled(first.deliveries[0]!);
    const link = /^<(.+)>$/.exec(mailsAbout(question)[0]!.headers['list-unsubscribe']!)![1]!;

    // GET only shows the page (mail scanners follow links); nothing changes.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Stop these emails?');
    expect((await getTimer(stack.db.sql, timerId))!.email).toBe(true);

    // A queued email recorded before the unsubscribe must not go out either.
    const timer = (await getTimer(stack.db.sql, timerId))!;
    const queuedRun = await finishedRun(timerId, 'succeeded');
    const queued = (await recordDelivery(stack.db.sql, {
      timerId,
      runId: queuedRun,
      userId: timer.userId,
      channel: 'email',
      kind: 'digest',
      events: [event({})],
    }))!;

    // RFC 8058: the mail provider POSTs from its own servers, with no session and no same-origin headers.
    const res = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example.com' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You are unsubscribed');
    expect((await getTimer(stack.db.sql, timerId))!.email).toBe(false);

    const process = createDeliverProcessor({
      sql: stack.db.sql,
      config: stack.config,
      logger: stack.deps.logger,
      mailer: createMailer(stack.config),
    });
    expect(await process(fakeJob(queued))).toBe('skipped');
    const next = await endRun(timerId, 'succeeded', [event({ title: 'After unsubscribing' })]);
    expect(next.deliveries).toEqual([]);
    expect(mailsAbout(question)).toHaveLength(1);

    const undo = await fetch(`${link}/undo`, { method: 'POST' });
    expect(undo.status).toBe(200);
    expect(await undo.text()).toContain('Emails are on again');
    expect((await getTimer(stack.db.sql, timerId))!.email).toBe(true);

    expect((await fetch(`${stack.url}/unsubscribe/not-a-token`, { method: 'POST' })).status).toBe(404);
  });

  it('refuses a webhook to a private address at save, and checks the other settings', async () => {
    const timerId = await createTimer('Webhook checks');
    for (const [url, message] of [
      ['http://10.0.0.1/hook', /private or local network/],
      ['http://127.0.0.1:1/hook', /private or local network/],
      ['http://[::1]/hook', /private or local network/],
      ['http://169.254.169.254/latest/meta-data', /private or local network/],
      ['ftp://example.com/hook', /https:\/\//],
      ['not a url', /not a valid URL/],
    ] as const) {
      const res = await api('PATCH', `/api/timers/${timerId}`, { webhook_url: url });
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    }
    for (const [body, message] of [
      [{ paused: 'yes' }, /paused must be true or false/],
      [{ email: 1 }, /email must be true or false/],
      [{ color: 'red' }, /only those can be changed here/],
      [{}, /at least one/],
    ] as const) {
      const res = await api('PATCH', `/api/timers/${timerId}`, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    }
    expect((await getTimer(stack.db.sql, timerId))!.webhookUrl).toBeNull();

    const other = await createSignedInUser(stack.db.sql);
    expect((await api('PATCH', `/api/timers/${timerId}`, { email: false }, other.cookie)).status).toBe(404);
    expect((await api('PATCH', `/api/timers/${timerId}`, { email: false }, '')).status).toBe(401);

    const ok = await api('PATCH', `/api/timers/${timerId}`, { webhook_url: receiverUrl, email: false });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: timerId, webhook_url: receiverUrl, email: false, paused: false, email_available: true });
    const cleared = await api('PATCH', `/api/timers/${timerId}`, { webhook_url: '' });
    expect(await cleared.json()).toMatchObject({ webhook_url: null });
  });

  it('posts {text, timer, run, events} to the webhook, retries a 503, and shows the last delivery status', async () => {
    const question = 'Webhook digests';
    const timerId = await createTimer(question);
    expect((await api('PATCH', `/api/timers/${timerId}`, { webhook_url: receiverUrl, email: false })).status).toBe(200);
    receiver.answer(503);
    const before = receiver.received.length;
    const result = await endRun(timerId, 'succeeded', [
      event({}),
      event({ key: 'k3', title: 'Moved meetup', status: 'moved', new: false }),
    ]);
    expect(result.deliveries).toHaveLength(1);
    expect(await settled(result.deliveries[0]!)).toMatchObject({ status: 'sent', attempts: 2 });
    const posts = receiver.received.slice(before);
    expect(posts).toHaveLength(2);
    const body = posts[1]!.body as {
      text: string;
      timer: { id: number; question: string };
      run: { id: number; new_count: number };
      events: Event[];
    };
    expect(posts[1]!.headers['content-type']).toBe('application/json');
    expect(body.text).toContain(`1 new and 1 changed event for "${question}"`);
    expect(body.text).toContain('[Moved] Moved meetup');
    expect(body.timer).toMatchObject({ id: timerId, question });
    expect(body.run).toMatchObject({ id: result.runId, new_count: 1 });
    expect(body.events.map((e) => e.title)).toEqual(['Applied ML Summit', 'Moved meetup']);

    // A 404 is not retried; the listing shows the failure.
    receiver.answer(404);
    const failing = await endRun(timerId, 'succeeded', [event({ title: 'Lost' })]);
    await until('the failed webhook', async () => (await getDeliveryStatus(stack.db.sql, failing.deliveries[0]!))?.status === 'failed');
    const listed = (
      (await (await api('GET', '/api/timers')).json()) as { id: number; last_delivery: { webhook: { status: string; error: string } } }[]
    ).find((t) => t.id === timerId)!;
    expect(listed.last_delivery.webhook).toMatchObject({ status: 'failed', error: expect.stringContaining('HTTP 404') });
    expect((await getDeliveryStatus(stack.db.sql, failing.deliveries[0]!))!.attempts).toBe(1);
  });

  it('removes a webhook that answers 410 Gone, says so on the timer and once in the next digest', async () => {
    const question = 'Gone webhook digests';
    const timerId = await createTimer(question);
    // Email off for the first run, so its own digest cannot race the 410 for the sentence.
    expect((await api('PATCH', `/api/timers/${timerId}`, { webhook_url: receiverUrl, email: false })).status).toBe(200);
    receiver.answer(410);
    const before = receiver.received.length;
    const gone = await endRun(timerId, 'succeeded', [event({ title: 'First find' })]);
    for (const id of gone.deliveries) {
      await until('the first deliveries to end', async () =>
        ['sent', 'failed'].includes((await getDeliveryStatus(stack.db.sql, id))?.status ?? ''),
      );
    }
    // Not retried: one POST, and the address is gone from the timer.
    expect(receiver.received.length - before).toBe(1);
    expect((await getTimer(stack.db.sql, timerId))!.webhookUrl).toBeNull();
    const sentence = /The webhook at 127\.0\.0\.1:\d+ answered HTTP 410 Gone: it no longer exists, so we removed it from this timer\./;
    const listed = (
      (await (await api('GET', '/api/timers')).json()) as { id: number; webhook_url: string | null; webhook_notice: string }[]
    ).find((t) => t.id === timerId)!;
    expect(listed.webhook_url).toBeNull();
    expect(listed.webhook_notice).toMatch(sentence);

    // The next run's digest carries the sentence; the one after does not repeat it, and no webhook is posted.
    expect((await api('PATCH', `/api/timers/${timerId}`, { email: true })).status).toBe(200);
    const mailed = mailsAbout(question).length;
    const next = await endRun(timerId, 'succeeded', [event({ key: 'k-next', title: 'Second find' })]);
    expect(next.deliveries).toHaveLength(1);
    await settled(next.deliveries[0]!);
    const later = await endRun(timerId, 'succeeded', [event({ key: 'k-later', title: 'Third find' })]);
    await settled(later.deliveries[0]!);
    const mails = mailsAbout(question).slice(mailed);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.text).toMatch(sentence);
    expect(mails[1]!.text).not.toMatch(/410 Gone/);
    expect(receiver.received.length - before).toBe(1);

    // A new address clears the sentence.
    const again = await api('PATCH', `/api/timers/${timerId}`, { webhook_url: receiverUrl });
    expect(await again.json()).toMatchObject({ webhook_url: receiverUrl, webhook_notice: null });
  });

  it('pauses a timer after three failed runs with one alert, keeps it paused through reconcile, and resumes it', async () => {
    const question = 'Failing timer';
    const timerId = await createTimer(question);
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timerId))).toBeTruthy();

    // A success in between breaks the streak.
    expect((await endRun(timerId, 'failed', [], 'boom 1')).consecutiveFailures).toBe(1);
    expect((await endRun(timerId, 'succeeded', [])).consecutiveFailures).toBe(0);
    expect((await endRun(timerId, 'failed', [], 'boom 2')).paused).toBe(false);
    expect((await endRun(timerId, 'skipped-no-searches', [])).deliveries).toHaveLength(1); // skipped runs do not break it
    expect((await endRun(timerId, 'failed', [], 'boom 3')).paused).toBe(false);
    const third = await endRun(timerId, 'failed', [], 'The website answered with an error (HTTP 500).');
    expect(third).toMatchObject({ paused: true, consecutiveFailures: 3 });
    expect(third.deliveries).toHaveLength(1);
    await settled(third.deliveries[0]!);

    const timer = (await getTimer(stack.db.sql, timerId))!;
    expect(timer.paused).toBe(true);
    expect(timer.pausedReason).toBe(
      '3 runs in a row failed. Last error: The website answered with an error (HTTP 500). Check the question and the website, then resume.',
    );
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timerId))).toBeFalsy();

    // Running the after-run step again, or another failure, sends no second alert.
    const again = await afterTimerRun(deps, {
      timer,
      runId: third.runId,
      outcome: 'failed',
      newOrChangedEvents: [],
      consecutiveFailures: 3,
    });
    expect(again).toMatchObject({ paused: false, deliveries: [] });
    const alerts = stack.standins.smtp.messages.filter((m) => m.subject === `Your timer paused itself: ${question}`);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.text).toContain('failed 3 times in a row');
    expect(alerts[0]!.text).toContain('HTTP 500');
    expect(alerts[0]!.text).toContain('resume the timer in Manage Timers');

    await reconcileSchedulers(stack.db.sql, stack.redis, stack.deps.timersQueue);
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timerId))).toBeFalsy();
    const listed = ((await (await api('GET', '/api/timers')).json()) as { id: number }[]).find((t) => t.id === timerId);
    expect(listed).toMatchObject({
      paused: true,
      consecutive_failures: 3,
      paused_reason: expect.stringContaining('3 runs in a row failed.'),
    });

    const resumed = await api('PATCH', `/api/timers/${timerId}`, { paused: false });
    expect(await resumed.json()).toMatchObject({ paused: false, paused_reason: null, consecutive_failures: 0 });
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timerId))).toBeTruthy();
    // Old failures no longer count: one new failure is one.
    expect((await endRun(timerId, 'failed', [], 'again')).consecutiveFailures).toBe(1);

    // Pausing by hand removes the scheduler too.
    expect(await (await api('PATCH', `/api/timers/${timerId}`, { paused: true })).json()).toMatchObject({
      paused: true,
      paused_reason: null,
    });
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timerId))).toBeFalsy();
  });

  it('tells the user once per allowance period that runs are skipped for lack of searches', async () => {
    const question = 'Out of searches';
    const user = await createSignedInUser(stack.db.sql);
    const res = await api('POST', '/api/schedule', dailyTimer({ time: '08:00', ques: question, timezone: 'UTC' }), user.cookie);
    const timerId = ((await res.json()) as { id: number }).id;
    const first = await endRun(
      timerId,
      'skipped-no-searches',
      [],
      'No searches left this month on the free plan, so this run was skipped.',
    );
    expect(first.deliveries).toHaveLength(1);
    await settled(first.deliveries[0]!);
    expect((await endRun(timerId, 'skipped-no-searches')).deliveries).toEqual([]);
    const notices = stack.standins.smtp.messages.filter((m) => m.envelope.to.includes(user.user.email));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.subject).toBe('Your timers are skipping runs: no searches left');
    expect(notices[0]!.text).toContain('nothing was charged');

    // A new allowance period may tell again.
    await stack.db.sql`update accounts set usage_epoch = usage_epoch + 1 where user_id = ${user.user.id}`;
    expect((await endRun(timerId, 'skipped-no-searches')).deliveries).toHaveLength(1);
  });

  it('the timer run path applies the rules: three failed fires pause the timer with one alert, a paused timer does not run', async () => {
    const question = 'Wired failing timer';
    const timerId = await createTimer(question);
    // The website now points to a private network (as a name whose DNS changed after the timer was saved would):
    // every run is refused before Gemini is asked.
    await stack.db.sql`update timers set website = 'http://10.0.0.1/' where id = ${timerId}`;
    const refused = 'The website address 10.0.0.1 points to a private or local network, which we do not read. Use a public website.';
    const fire = (n: number) => fireScheduled(stack, timerId, { at: Date.UTC(2026, 6, n, 7) }).catch((err: Error) => err.message);
    for (const n of [1, 2, 3]) expect(await fire(n)).toBe(refused);
    const timer = (await getTimer(stack.db.sql, timerId))!;
    expect(timer).toMatchObject({ paused: true, consecutiveFailures: 3 });
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timerId))).toBeFalsy();
    const alert = await until('the alert', () =>
      stack.standins.smtp.messages.find((m) => m.subject === `Your timer paused itself: ${question}`),
    );
    expect(alert.text).toContain('private or local network');
    expect(await fire(4)).toBe('paused');
    const [runs] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from timer_runs where timer_id = ${timerId}`;
    expect(runs!.n).toBe(3);
    expect(stack.standins.smtp.messages.filter((m) => m.subject === alert.subject)).toHaveLength(1);
  });
});
