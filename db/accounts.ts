import type { Tier } from '../core/plans';
import type { Db } from './client';

/**
 * Searches per month of each tier. The plans are core's (core/plans.ts ALLOWANCES); they come in as an argument,
 * sent as a JSON parameter, so SQL reads the same table as the page.
 */
export type Allowances = Readonly<Record<Tier, number>>;

/** SQL over an `accounts` row: fewer searches used than its tier's allowance. */
const underAllowance = (sql: Db, allowances: Allowances) => sql`searches_used < (${sql.json(allowances)}::jsonb ->> tier)::int`;

/** SQL over an `accounts` row: a free account whose allowance period is over (it is rolled before it is charged). */
export const freePeriodEnded = (sql: Db) => sql`(tier = 'free' and period_end <= now())`;

/**
 * SQL over an `accounts` row: a credit is left to take. With `inOpenPeriod` a free account whose period has ended
 * is left alone, so that it is rolled first; every take of a credit charges through this one condition.
 */
export const creditLeft = (sql: Db, allowances: Allowances, inOpenPeriod: boolean) =>
  sql`${underAllowance(sql, allowances)} and (${!inOpenPeriod} or not ${freePeriodEnded(sql)})`;

export interface Billing {
  tier: Tier;
  /** Searches left in the current period, never below 0. */
  credits: number;
  allowance: number;
  used: number;
  status: string;
  periodEnd: Date;
  /** The allowance period this state belongs to (see migration 002); refunds name it. */
  usageEpoch: number;
}

export type CreditResult = { ok: true; billing: Billing } | { ok: false; billing: Billing };

type AccountRow = { tier: Tier; searches_used: number; status: string; period_end: Date; usage_epoch: number };

function toBilling(row: AccountRow, allowances: Allowances): Billing {
  const allowance = allowances[row.tier];
  return {
    tier: row.tier,
    allowance,
    used: row.searches_used,
    credits: Math.max(allowance - row.searches_used, 0),
    status: row.status,
    periodEnd: row.period_end,
    usageEpoch: row.usage_epoch,
  };
}

/**
 * Starts a new month for a free account whose period has ended. The WHERE clause is re-checked under the
 * row lock, so concurrent callers roll the period once. `at` stands in for the database clock in tests.
 */
export async function rollFreePeriod(sql: Db, userId: number, at?: Date): Promise<void> {
  // age() counts whole calendar months, but adding months clamps to the month's last day (Jan 31 + 1 month is
  // Feb 28), so age can be one short: then the rolled period would still be over and reset usage on every call.
  await sql`
    with clock as (select coalesce(${at ?? null}::timestamptz, now()) as now)
    update accounts set
      period_start = a.period_start + make_interval(months => m.n),
      period_end = a.period_start + make_interval(months => m.n + 1),
      searches_used = 0,
      usage_epoch = accounts.usage_epoch + 1,
      updated_at = now()
    from accounts a, clock c,
      lateral (select (extract(year from age(c.now, a.period_start)) * 12
                       + extract(month from age(c.now, a.period_start)))::int as k) aged,
      lateral (select aged.k + (a.period_start + make_interval(months => aged.k + 1) <= c.now)::int as n) m
    where accounts.user_id = a.user_id and a.user_id = ${userId}
      and accounts.tier = 'free' and accounts.period_end <= c.now`;
}

/**
 * The account's billing state, with a free period that has ended rolled first. Read first and rolled only when
 * the read says so: the page and GET /api/account/billing ask on every load, and nearly always nothing rolls,
 * so the common case is one indexed read and no write.
 */
export async function getBilling(sql: Db, userId: number, allowances: Allowances): Promise<Billing | null> {
  const [row] = await sql<(AccountRow & { ended: boolean })[]>`
    select tier, searches_used, status, period_end, usage_epoch, ${freePeriodEnded(sql)} as ended
    from accounts where user_id = ${userId}`;
  if (!row?.ended) return row ? toBilling(row, allowances) : null;
  await rollFreePeriod(sql, userId);
  const [rolled] = await sql<AccountRow[]>`
    select tier, searches_used, status, period_end, usage_epoch from accounts where user_id = ${userId}`;
  return rolled ? toBilling(rolled, allowances) : null;
}

/**
 * One conditional UPDATE that takes a credit: concurrent callers can never overdraw. With `inOpenPeriod` it
 * also leaves a free account whose period has ended alone, so that it is rolled first.
 */
async function takeFromAllowance(sql: Db, userId: number, allowances: Allowances, inOpenPeriod: boolean): Promise<AccountRow | undefined> {
  const [row] = await sql<AccountRow[]>`
    update accounts set searches_used = searches_used + 1, updated_at = now()
    where user_id = ${userId} and ${creditLeft(sql, allowances, inOpenPeriod)}
    returning tier, searches_used, status, period_end, usage_epoch`;
  return row;
}

/** An interactive search as it starts: what its row records. */
interface SearchStart {
  userId: number;
  question: string;
  website: string;
  model: string;
  filters: unknown;
}

/** A started search's id, and the allowance period its credit came from (null: none was taken). */
interface StartedSearch {
  searchId: number;
  epoch: number | null;
}

/**
 * Records an interactive search as it starts and takes its credit, in one statement (one round trip while
 * Gemini is already asked): `epoch` is the allowance period the credit came from, or null when this take found
 * none (the caller then tries `takeCredit`, which rolls an ended free period, or refuses). The row is written
 * either way, as `startSearchRecord` writes it, with the credit's period (`credit_epoch`) when one was taken.
 */
export async function startSearchTakingCredit(sql: Db, row: SearchStart, allowances: Allowances): Promise<StartedSearch> {
  const filters = row.filters ? sql.json(row.filters as never) : null;
  const [rec] = await sql<{ id: string; usage_epoch: number | null }[]>`
    with taken as (
      update accounts set searches_used = searches_used + 1, updated_at = now()
      where user_id = ${row.userId} and ${creditLeft(sql, allowances, true)}
      returning usage_epoch
    ), recorded as (
      insert into searches (user_id, timer_run_id, question, website, status, model, filters, credit_epoch)
      select ${row.userId}, null, ${row.question}, ${row.website}, 'running', ${row.model}, ${filters},
             (select usage_epoch from taken)
      returning id
    )
    select recorded.id, taken.usage_epoch from recorded left join taken on true`;
  return { searchId: Number(rec!.id), epoch: rec!.usage_epoch ?? null };
}

/**
 * Takes one search credit. The common case (a period that has not ended, a credit left) is one statement, a
 * round trip an interactive search waits for before Gemini is asked; only a refused take rolls an ended free
 * period and tries again, which is what rolling first would have given.
 */
export async function takeCredit(sql: Db, userId: number, allowances: Allowances): Promise<CreditResult> {
  const taken = await takeFromAllowance(sql, userId, allowances, true);
  if (taken) return { ok: true, billing: toBilling(taken, allowances) };
  await rollFreePeriod(sql, userId);
  const row = await takeFromAllowance(sql, userId, allowances, false);
  if (row) return { ok: true, billing: toBilling(row, allowances) };
  const billing = await getBilling(sql, userId, allowances);
  if (!billing) throw new Error(`User ${userId} has no account`);
  return { ok: false, billing };
}

/**
 * Whether a take would very likely succeed now: a credit left, or a free period that has ended (rolling it
 * gives new ones). A hint read before the take, never instead of it: concurrent asks may use the credit first.
 */
export async function creditLikelyLeft(sql: Db, userId: number, allowances: Allowances): Promise<boolean> {
  const [row] = await sql<{ likely: boolean }[]>`
    select ${underAllowance(sql, allowances)} or ${freePeriodEnded(sql)} as likely
    from accounts where user_id = ${userId}`;
  return row?.likely === true;
}

/**
 * Gives back a credit taken for a search that produced nothing, in the allowance period it was taken in
 * (`usageEpoch` from takeCredit): once a new period has started, the old credit is gone with its period.
 */
export async function refundCredit(sql: Db, userId: number, usageEpoch: number): Promise<void> {
  await sql`update accounts set searches_used = greatest(searches_used - 1, 0), updated_at = now()
            where user_id = ${userId} and usage_epoch = ${usageEpoch}`;
}

/** The user's current allowance period (0 for a user without an account row): one notice per period is keyed on it. */
export async function usageEpochOf(sql: Db, userId: number): Promise<number> {
  const [account] = await sql<{ usage_epoch: number }[]>`select usage_epoch from accounts where user_id = ${userId}`;
  return account?.usage_epoch ?? 0;
}
