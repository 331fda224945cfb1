import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALLOWANCES } from '../core/plans';
import { createNotingTestDatabase, type NotingTestDatabase } from '../dev/harness/db';
import { createSignedInUser } from '../dev/harness/users';
import type { SearchStart } from './accounts';
import { startSearchSoon } from './search-starts';

describe('searches started in the same turn', () => {
  // The starts go through the database's noting pool, which notes each statement.
  let db: NotingTestDatabase;
  beforeAll(async () => {
    db = await createNotingTestDatabase();
  });
  afterAll(() => db.drop());
  beforeEach(() => {
    db.noting.sent.length = 0;
  });

  const sent = () => db.noting.sent;
  const starts = () => sent().filter((q) => q.includes('insert into searches')).length;
  const user = async (used: number, tier = 'free') => {
    const { user } = await createSignedInUser(db.sql);
    await db.sql`update accounts set searches_used = ${used}, tier = ${tier} where user_id = ${user.id}`;
    return user.id;
  };
  const start = (userId: number, question = `AI meetups for user ${userId}`, filters: unknown = null): SearchStart => ({
    userId,
    question,
    website: '',
    model: 'gemini-flash-latest',
    filters,
  });
  const used = async (userId: number) => (await db.sql`select searches_used from accounts where user_id = ${userId}`)[0]!.searches_used;
  const row = async (id: number) =>
    (await db.sql`select user_id, question, website, status, model, filters from searches where id = ${id}`)[0];

  it('records each and takes each credit in one statement, each row as it would be alone', async () => {
    const users = await Promise.all([user(0), user(3), user(9)]);
    const filters = { freeOnly: true };
    const started = await Promise.all([
      startSearchSoon(db.noting.sql, start(users[0]!, 'Jazz in Lisbon'), ALLOWANCES),
      startSearchSoon(db.noting.sql, start(users[1]!, 'Book fairs in Porto', filters), ALLOWANCES),
      startSearchSoon(db.noting.sql, start(users[2]!, 'Film nights in Braga'), ALLOWANCES),
    ]);
    expect(starts()).toBe(1);
    expect(new Set(started.map((s) => s.searchId)).size).toBe(3);
    expect(started.every((s) => s.epoch === 0)).toBe(true);
    expect(await Promise.all(users.map(used))).toEqual([1, 4, 10]);
    expect(await row(started[1]!.searchId)).toEqual({
      user_id: String(users[1]),
      question: 'Book fairs in Porto',
      website: '',
      status: 'running',
      model: 'gemini-flash-latest',
      filters,
    });
    expect((await row(started[2]!.searchId))!.question).toBe('Film nights in Braga');
  });

  it('records a search whose user has no credit left without taking one', async () => {
    const [spent, left] = await Promise.all([user(ALLOWANCES.free), user(0)]);
    const [none, one] = await Promise.all([
      startSearchSoon(db.noting.sql, start(spent!), ALLOWANCES),
      startSearchSoon(db.noting.sql, start(left!), ALLOWANCES),
    ]);
    expect(starts()).toBe(1);
    expect(none!.epoch).toBeNull();
    expect(one!.epoch).toBe(0);
    expect(await used(spent!)).toBe(ALLOWANCES.free);
    expect((await row(none!.searchId))!.status).toBe('running');
  });

  it('puts a second start of one user in another statement, so its last credit is taken once', async () => {
    const last = await user(ALLOWANCES.free - 1);
    const twice = await Promise.all([
      startSearchSoon(db.noting.sql, start(last), ALLOWANCES),
      startSearchSoon(db.noting.sql, start(last), ALLOWANCES),
    ]);
    expect(starts()).toBe(2);
    expect(twice.map((s) => s.epoch).sort()).toEqual([0, null]);
    expect(await used(last)).toBe(ALLOWANCES.free);
  });

  it('makes each start alone when Postgres refuses the statement, so one bad start fails alone', async () => {
    const good = await user(0);
    const results = await Promise.allSettled([
      startSearchSoon(db.noting.sql, start(good), ALLOWANCES),
      // No such user: the row's reference to its user fails.
      startSearchSoon(db.noting.sql, start(2_000_000_000), ALLOWANCES),
    ]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { epoch: 0 } });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: '23503' } });
    expect(await used(good)).toBe(1);
    expect(await db.sql`select count(*)::int as n from searches where user_id = ${good}`).toEqual([{ n: 1 }]);
  });

  it('sends a start alone as the one-row statement, and a large turn in statements of a hundred', async () => {
    const alone = await user(0, 'pro');
    await startSearchSoon(db.noting.sql, start(alone), ALLOWANCES);
    expect(sent().filter((q) => q.includes('jsonb_to_recordset'))).toHaveLength(0);
    expect(starts()).toBe(1);

    db.noting.sent.length = 0;
    const many = await Promise.all(Array.from({ length: 120 }, () => user(0, 'pro')));
    const started = await Promise.all(many.map((id) => startSearchSoon(db.noting.sql, start(id), ALLOWANCES)));
    expect(starts()).toBe(2);
    expect(new Set(started.map((s) => s.searchId)).size).toBe(120);
    expect(started.every((s) => s.epoch === 0)).toBe(true);
  });
});
