import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER_DIED_ERROR, WORKER_DIED_NO_WEBSITE_ERROR } from '../core/timers/worker-deaths';
import { insertTimer } from '../db/timers';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { fireScheduled } from './support/runs';

// Runs given up after their workers died twice (core/timers/worker-deaths.ts), three days in a row: a timer whose
// website stops the workers pauses as after any three failures of its website; one with no website is not paused
// for what went wrong on our side.
describe('runs whose workers died, and auto-pause', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  /** Three daily fires of the timer, each handed back by BullMQ after its worker stopped twice. */
  async function threeGivenUpRuns(timerId: number) {
    for (let day = 1; day <= 3; day++) {
      expect(await fireScheduled(stack, timerId, { at: Date.UTC(2026, 5, day, 7), stalledCounter: 2 })).toBe('failed');
    }
    const runs = await stack.db.sql<{ status: string; error: string }[]>`
      select status, error from timer_runs where timer_id = ${timerId} order by scheduled_for`;
    const [timer] = await stack.db.sql<{ consecutive_failures: number; paused_at: Date | null; paused_reason: string | null }[]>`
      select consecutive_failures, paused_at, paused_reason from timers where id = ${timerId}`;
    return { runs, timer: timer! };
  }

  it('pauses a timer whose website stopped its workers on three runs in a row', async () => {
    const { user } = await createSignedInUser(stack.db.sql);
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI meetups', web: 'https://events.example/calendar' }));
    const { runs, timer: after } = await threeGivenUpRuns(timer.id);
    expect(runs).toEqual(Array(3).fill({ status: 'failed', error: WORKER_DIED_ERROR }));
    expect(after.consecutive_failures).toBe(3);
    expect(after.paused_at).not.toBeNull();
    expect(after.paused_reason).toContain(WORKER_DIED_ERROR);
  });

  it('shows the failures of a timer without a website but never pauses it for them', async () => {
    const { user } = await createSignedInUser(stack.db.sql);
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI meetups in Berlin', web: '' }));
    const { runs, timer: after } = await threeGivenUpRuns(timer.id);
    expect(runs).toEqual(Array(3).fill({ status: 'failed', error: WORKER_DIED_NO_WEBSITE_ERROR }));
    expect(after).toMatchObject({ consecutive_failures: 0, paused_at: null, paused_reason: null });
  });
});
