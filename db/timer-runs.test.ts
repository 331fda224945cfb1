import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWANCES } from '../core/plans';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { claimedRun } from '../test/support/runs';
import { createSignedInUser } from '../dev/harness/users';
import { recountFailures } from './timer-delivery';
import { claimFire, endRun, failRun, refundRunCredit, succeedRun, takeRunCredit } from './timer-runs';
import { insertTimer } from './timers';

describe('a fire and its credit', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  const used = async (userId: number) =>
    (await db.sql<{ n: number }[]>`select searches_used as n from accounts where user_id = ${userId}`)[0]!.n;

  async function timerOf(userId: number) {
    return insertTimer(db.sql, userId, {
      scheduleType: 'daily',
      time: '09:00',
      weekday: null,
      ques: 'Kubernetes meetups',
      web: '',
      timezone: 'UTC',
    });
  }

  it('claims one run per fire, however many executions claim it at once', async () => {
    const { user } = await createSignedInUser(db.sql);
    const timer = await timerOf(user.id);
    const at = new Date('2026-11-23T09:00:00Z');
    const claims = await Promise.all(Array.from({ length: 8 }, () => claimFire(db.sql, timer.id, at, false)));
    const ids = new Set(claims.map((c) => (c.kind === 'claimed' ? c.run.id : null)));
    expect(ids.size).toBe(1);
    expect([...ids][0]).not.toBeNull();
    const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from timer_runs where timer_id = ${timer.id}`;
    expect(row!.n).toBe(1);
  });

  it('does not claim a deleted timer, nor a paused one unless asked to (Run now)', async () => {
    const { user } = await createSignedInUser(db.sql);
    const paused = await timerOf(user.id);
    await db.sql`update timers set paused_at = now() where id = ${paused.id}`;
    const at = new Date('2026-11-23T09:00:00Z');
    expect((await claimFire(db.sql, paused.id, at, false)).kind).toBe('paused');
    expect((await claimFire(db.sql, paused.id, at, true)).kind).toBe('claimed');
    const gone = await timerOf(user.id);
    await db.sql`update timers set deleted_at = now() where id = ${gone.id}`;
    expect((await claimFire(db.sql, gone.id, at, true)).kind).toBe('timer-gone');
    expect((await claimFire(db.sql, 999_999_999, at, true)).kind).toBe('timer-gone');
  });

  it('charges a run once when executions take its credit at the same time, and lends it to each', async () => {
    const { user } = await createSignedInUser(db.sql);
    const timer = await timerOf(user.id);
    const run = { ...(await claimedRun(db.sql, timer.id, new Date('2026-11-23T10:00:00Z'))), userId: user.id };
    const before = await used(user.id);
    const takes = await Promise.all(Array.from({ length: 10 }, () => takeRunCredit(db.sql, run, ALLOWANCES)));
    expect(takes.every((t) => t.kind === 'taken')).toBe(true);
    expect(new Set(takes.map((t) => (t.kind === 'taken' ? t.epoch : -1))).size).toBe(1);
    expect(await used(user.id)).toBe(before + 1);

    // Given back once, taken again once; an ended run takes nothing and keeps its charge.
    await Promise.all([refundRunCredit(db.sql, run), refundRunCredit(db.sql, run)]);
    expect(await used(user.id)).toBe(before);
    await Promise.all([takeRunCredit(db.sql, run, ALLOWANCES), takeRunCredit(db.sql, run, ALLOWANCES)]);
    expect(await used(user.id)).toBe(before + 1);
    await succeedRun(db.sql, run, 'an answer', ALLOWANCES);
    expect(await takeRunCredit(db.sql, run, ALLOWANCES)).toEqual({ kind: 'run_ended' });
    expect(await failRun(db.sql, run, 'late failure')).toBe(false);
    expect(await used(user.id)).toBe(before + 1);
  });

  it('takes nothing when the allowance is used up, and says so with the billing state', async () => {
    const { user } = await createSignedInUser(db.sql);
    const timer = await timerOf(user.id);
    await db.sql`update accounts set searches_used = 1000000 where user_id = ${user.id}`;
    const run = { ...(await claimedRun(db.sql, timer.id, new Date('2026-11-23T11:00:00Z'))), userId: user.id };
    const take = await takeRunCredit(db.sql, run, ALLOWANCES);
    expect(take).toMatchObject({ kind: 'none_left', billing: { credits: 0 } });
    expect(await used(user.id)).toBe(1000000);
    const [row] = await db.sql<{ credit_taken: boolean }[]>`select credit_taken from timer_runs where id = ${run.id}`;
    expect(row!.credit_taken).toBe(false);
  });

  it("rolls a free account's ended period before charging a run: the new period's first credit", async () => {
    const { user } = await createSignedInUser(db.sql);
    const timer = await timerOf(user.id);
    await db.sql`update accounts set tier = 'free', searches_used = 10, period_start = now() - interval '40 days',
                 period_end = now() - interval '10 days' where user_id = ${user.id}`;
    const [account0] = await db.sql<{ epoch: number }[]>`select usage_epoch as epoch from accounts where user_id = ${user.id}`;
    const run = { ...(await claimedRun(db.sql, timer.id, new Date('2026-11-23T11:30:00Z'))), userId: user.id };
    const take = await takeRunCredit(db.sql, run, ALLOWANCES);
    expect(take).toEqual({ kind: 'taken', epoch: account0!.epoch + 1 });
    const [account] = await db.sql<{ used: number; ended: boolean }[]>`
      select searches_used as used, period_end <= now() as ended from accounts where user_id = ${user.id}`;
    expect(account).toEqual({ used: 1, ended: false });
  });

  it('charges a succeeded run whose credit an earlier failed execution gave back, once', async () => {
    const { user } = await createSignedInUser(db.sql);
    const timer = await timerOf(user.id);
    const run = { ...(await claimedRun(db.sql, timer.id, new Date('2026-11-23T12:00:00Z'))), userId: user.id };
    const before = await used(user.id);
    await takeRunCredit(db.sql, run, ALLOWANCES);
    await refundRunCredit(db.sql, run);
    await Promise.all([succeedRun(db.sql, run, 'an answer', ALLOWANCES), succeedRun(db.sql, run, 'an answer', ALLOWANCES)]);
    expect(await used(user.id)).toBe(before + 1);
  });

  it("a success recounts the timer's failures in a row in the statement that ends the run", async () => {
    const { user } = await createSignedInUser(db.sql);
    const timer = await timerOf(user.id);
    const fire = async (day: number) => {
      const run = { ...(await claimedRun(db.sql, timer.id, new Date(Date.UTC(2026, 10, day, 9)))), userId: user.id };
      await takeRunCredit(db.sql, run, ALLOWANCES);
      return run;
    };
    const stored = async () => (await db.sql<{ n: number }[]>`select consecutive_failures as n from timers where id = ${timer.id}`)[0]!.n;
    const early = await fire(1);
    await failRun(db.sql, await fire(2), 'Gemini failed');
    await failRun(db.sql, await fire(3), 'Gemini failed');
    expect(await recountFailures(db.sql, timer.id)).toBe(2);

    // An older fire that succeeds late does not break the streak of the failures after it.
    expect(await succeedRun(db.sql, early, 'an answer', ALLOWANCES)).toBe(2);
    expect(await stored()).toBe(2);
    // A newer one does, and the stored count says so at once.
    expect(await succeedRun(db.sql, await fire(4), 'an answer', ALLOWANCES)).toBe(0);
    expect(await stored()).toBe(0);
    expect(await recountFailures(db.sql, timer.id)).toBe(0);
  });

  it("a fire's end brings back the timer's failures in a row: a failure counted with its refund, a skip not counted", async () => {
    const { user } = await createSignedInUser(db.sql);
    const timer = await timerOf(user.id);
    const fire = async (day: number, charged = true) => {
      const run = { ...(await claimedRun(db.sql, timer.id, new Date(Date.UTC(2026, 10, day, 9)))), userId: user.id, timerId: timer.id };
      if (charged) await takeRunCredit(db.sql, run, ALLOWANCES);
      return run;
    };
    const before = await used(user.id);
    expect(await endRun(db.sql, await fire(1), { status: 'failed', error: 'Gemini failed' }, ALLOWANCES)).toBe(1);
    expect(await endRun(db.sql, await fire(2, false), { status: 'skipped', error: 'No searches left.' }, ALLOWANCES)).toBeNull();
    expect(await endRun(db.sql, await fire(3), { status: 'failed', error: 'Gemini failed' }, ALLOWANCES)).toBe(2);
    expect(await used(user.id)).toBe(before);
    const answered = await fire(4);
    expect(await endRun(db.sql, answered, { status: 'succeeded', answer: 'an answer' }, ALLOWANCES)).toBe(0);
    expect(await used(user.id)).toBe(before + 1);
    // A second end of the same run changes neither its outcome nor its charge, and counts the same.
    expect(await endRun(db.sql, answered, { status: 'failed', error: 'late failure' }, ALLOWANCES)).toBe(0);
    const [row] = await db.sql<{ status: string }[]>`select status from timer_runs where id = ${answered.id}`;
    expect(row!.status).toBe('succeeded');
    expect(await used(user.id)).toBe(before + 1);
  });
});
