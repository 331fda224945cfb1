import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWANCES } from '../core/plans';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { createSignedInUser } from '../dev/harness/users';
import { getBilling, refundCredit, rollFreePeriod, startSearchTakingCredit, takeCredit } from './accounts';

describe('accounts and credits', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('starts a new user on the free plan with 10 credits', async () => {
    const { user } = await createSignedInUser(db.sql);
    expect(await getBilling(db.sql, user.id, ALLOWANCES)).toMatchObject({ tier: 'free', credits: 10, allowance: 10, status: 'active' });
  });

  it('never overdraws under 20 concurrent takes', async () => {
    const { user } = await createSignedInUser(db.sql);
    const results = await Promise.all(Array.from({ length: 20 }, () => takeCredit(db.sql, user.id, ALLOWANCES)));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok)).toHaveLength(10);
    expect((await getBilling(db.sql, user.id, ALLOWANCES))?.credits).toBe(0);
    const epoch = results.find((r) => r.ok)!.billing.usageEpoch;
    await refundCredit(db.sql, user.id, epoch);
    expect((await getBilling(db.sql, user.id, ALLOWANCES))?.credits).toBe(1);
  });

  it('takes the last credit once when several searches start on it at the same moment, and records each', async () => {
    const { user } = await createSignedInUser(db.sql);
    await db.sql`update accounts set searches_used = ${ALLOWANCES.free - 1} where user_id = ${user.id}`;
    const start = { userId: user.id, question: 'Jazz in Lisbon', website: '', model: 'gemini-flash-latest', filters: null };
    const started = await Promise.all(Array.from({ length: 8 }, () => startSearchTakingCredit(db.sql, start, ALLOWANCES)));
    expect(started.filter((s) => s.epoch !== null)).toHaveLength(1);
    expect(new Set(started.map((s) => s.searchId)).size).toBe(8);
    expect((await getBilling(db.sql, user.id, ALLOWANCES))?.credits).toBe(0);
    expect(await db.sql`select count(*)::int as n from searches where user_id = ${user.id}`).toEqual([{ n: 8 }]);
  });

  it('gives a credit back only in the period it was taken in', async () => {
    const { user } = await createSignedInUser(db.sql);
    const taken = await takeCredit(db.sql, user.id, ALLOWANCES);
    if (!taken.ok) throw new Error('no credit');
    // The free month ends; the new one starts at 0 and the user searches 3 times in it.
    await db.sql`update accounts set period_start = now() - interval '1 month 1 day', period_end = now() - interval '1 day'
                 where user_id = ${user.id}`;
    for (let i = 0; i < 3; i++) expect((await takeCredit(db.sql, user.id, ALLOWANCES)).ok).toBe(true);
    expect((await getBilling(db.sql, user.id, ALLOWANCES))?.used).toBe(3);
    // The refund of the old month's credit arrives late: it must not add a search to the new month.
    await refundCredit(db.sql, user.id, taken.billing.usageEpoch);
    expect((await getBilling(db.sql, user.id, ALLOWANCES))?.used).toBe(3);
    const current = await getBilling(db.sql, user.id, ALLOWANCES);
    await refundCredit(db.sql, user.id, current!.usageEpoch);
    expect((await getBilling(db.sql, user.id, ALLOWANCES))?.used).toBe(2);
  });

  it('rolls an ended free period forward by whole months, once', async () => {
    const { user } = await createSignedInUser(db.sql);
    await db.sql`update accounts set searches_used = 10,
      period_start = now() - interval '2 months 3 days', period_end = now() - interval '1 month 3 days'
      where user_id = ${user.id}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => takeCredit(db.sql, user.id, ALLOWANCES)));
    expect(results.every((r) => r.ok)).toBe(true);
    const billing = await getBilling(db.sql, user.id, ALLOWANCES);
    expect(billing?.credits).toBe(5);
    expect(billing!.periodEnd.getTime()).toBeGreaterThan(Date.now());
    expect(billing!.periodEnd.getTime()).toBeLessThan(Date.now() + 32 * 24 * 3600 * 1000);
  });

  it('rolls a period that began on the 31st past the short month, and resets usage only once', async () => {
    const { user } = await createSignedInUser(db.sql);
    await db.sql`update accounts set searches_used = 10,
      period_start = '2025-01-31T12:00:00Z', period_end = '2025-02-28T12:00:00Z' where user_id = ${user.id}`;
    const at = new Date('2025-02-28T13:00:00Z');
    await rollFreePeriod(db.sql, user.id, at);
    const [rolled] = await db.sql<{ period_start: Date; period_end: Date }[]>`
      select period_start, period_end from accounts where user_id = ${user.id}`;
    expect(rolled!.period_start.getTime()).toBeLessThanOrEqual(at.getTime());
    expect(rolled!.period_end.getTime()).toBeGreaterThan(at.getTime());
    await db.sql`update accounts set searches_used = 3 where user_id = ${user.id}`;
    await rollFreePeriod(db.sql, user.id, at);
    const [again] = await db.sql<{ searches_used: number }[]>`select searches_used from accounts where user_id = ${user.id}`;
    expect(again!.searches_used).toBe(3);
  });

  it('keeps a paid period even after its end passes (Stripe renews it)', async () => {
    const { user } = await createSignedInUser(db.sql);
    await db.sql`update accounts set tier = 'plus', searches_used = 50, period_end = now() - interval '1 day'
      where user_id = ${user.id}`;
    expect((await takeCredit(db.sql, user.id, ALLOWANCES)).ok).toBe(false);
  });
});
