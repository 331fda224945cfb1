import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';
import { pageCalls } from './support/page-calls';

/**
 * Delivery through the real run path: Run now → the worker's timer run (one charged search, events recorded
 * against the timer's memory) → afterTimerRun → the deliveries worker → the SMTP stand-in. The changing
 * sample site lists 3 events, then adds one, then moves one and cancels another.
 */
describe('timer runs deliver their new and changed events', () => {
  let stack: TestStack;
  let cookie: string;
  let email: string;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true });
    await stack.startDeliveries();
    ({
      cookie,
      user: { email },
    } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const { call, runNow } = pageCalls(() => ({ url: stack.url, cookie }));
  /**
   * The run's deliveries once every one of them has finished (sent, failed or skipped). Waits for the run's job
   * to complete first: the after-run step records the deliveries after the run row shows it ended.
   */
  const settledDeliveries = async (runId: number) => {
    const [run] = await stack.db.sql<
      { scheduled_for: Date; timer_id: string }[]
    >`select scheduled_for, timer_id from timer_runs where id = ${runId}`;
    const jobId = `run-now:timer-${run!.timer_id}:${run!.scheduled_for.getTime()}`;
    await until('the run’s job to complete', async () => (await stack.deps.timersQueue.getJobState(jobId)) === 'completed');
    return until('the run’s deliveries to finish', async () => {
      const rows = await stack.db.sql<
        { channel: string; status: string }[]
      >`select channel, status from deliveries where run_id = ${runId}`;
      return rows.every((r) => ['sent', 'failed', 'skipped'].includes(r.status)) ? rows : null;
    });
  };
  const mails = () => stack.standins.smtp.messages.filter((m) => m.envelope.to.includes(email));

  it('one email per run with new or changed events, each listing exactly those, none for a run with nothing new', async () => {
    const question = 'AI events in Berlin, by email';
    const res = await call(
      'POST',
      '/api/schedule',
      dailyTimer({ time: '03:00', ques: question, web: `${stack.standins.url}/sites/changing/delivery${Date.now()}.html` }),
    );
    const timerId = ((await res.json()) as { id: number }).id;

    const first = await runNow(timerId);
    expect(first).toMatchObject({ status: 'succeeded', new_count: 3 });
    expect(await settledDeliveries(first.id)).toEqual([{ channel: 'email', status: 'sent' }]);
    expect(mails()).toHaveLength(1);
    expect(mails()[0]!.subject).toBe(`3 new events: ${question}`);
    expect(mails()[0]!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    const second = await runNow(timerId);
    expect(second.new_count).toBe(1);
    await settledDeliveries(second.id);
    expect(mails()).toHaveLength(2);
    expect(mails()[1]!.subject).toBe(`1 new event: ${question}`);
    expect(mails()[1]!.text).toContain('[New] Robotics Demo Day');
    expect(mails()[1]!.text).not.toContain('Data Engineering Night');

    const third = await runNow(timerId);
    expect(third.new_count).toBe(0);
    await settledDeliveries(third.id);
    expect(mails()).toHaveLength(3);
    expect(mails()[2]!.subject).toBe(`2 changed events: ${question}`);
    expect(mails()[2]!.text).toContain('[Moved] Open Source AI Meetup');
    expect(mails()[2]!.text).toContain('[Cancelled] Vector Databases Workshop');
    // The moved event shows its old and new date wherever it is shown: the run, the email, the iCal and Atom feeds.
    const moved = third.events.find((e) => e.title === 'Open Source AI Meetup')!;
    expect(moved).toMatchObject({ status: 'moved', moved_from: second.events.find((e) => e.title === 'Open Source AI Meetup')!.starts_at });
    const lines = mails()[2]!.text.split('\n');
    expect(lines[lines.indexOf('[Moved] Open Source AI Meetup') + 1]).toMatch(
      /^ {2}\w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d → \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d$/,
    );
    const timer = ((await (await call('GET', '/api/timers')).json()) as { id: number; ical_url: string; atom_url: string }[]).find(
      (t) => t.id === timerId,
    )!;
    const ics = (await (await fetch(timer.ical_url)).text()).replace(/\r\n /g, '');
    expect(ics).toMatch(/DESCRIPTION:Moved: \w{3} \d{1,2} \w{3} \d{4}\\, \d\d:\d\d → \w{3} \d{1,2} \w{3} \d{4}\\, \d\d:\d\d/);
    expect(await (await fetch(timer.atom_url)).text()).toMatch(/Moved: Open Source AI Meetup · \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d → /);

    // The site stays as it is now: nothing new or changed, nothing recorded, nothing sent.
    const fourth = await runNow(timerId);
    expect(fourth.new_count).toBe(0);
    expect(await settledDeliveries(fourth.id)).toEqual([]);
    expect(mails()).toHaveLength(3);
  });

  it('Run now still runs a paused timer (an explicit request); its scheduled fires do not', async () => {
    const res = await call(
      'POST',
      '/api/schedule',
      dailyTimer({ time: '04:00', ques: 'Paused but asked', web: `${stack.standins.url}/sites/berlin-ai.html` }),
    );
    const timerId = ((await res.json()) as { id: number }).id;
    expect((await call('PATCH', `/api/timers/${timerId}`, { paused: true })).status).toBe(200);
    const run = await runNow(timerId);
    expect(run.status).toBe('succeeded');
    expect((await (await call('GET', '/api/timers')).json()) as { id: number; paused: boolean }[]).toContainEqual(
      expect.objectContaining({ id: timerId, paused: true }),
    );
  });
});
