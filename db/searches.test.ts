import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { createSignedInUser } from '../dev/harness/users';
import { ALLOWANCES } from '../core/plans';
import { getBilling, refundCredit, startSearchTakingCredit } from './accounts';
import { type CallUsage, failSearchGivingBack, finishSearchRecord, startSearchRecord } from './searches';

const call = (u: Partial<CallUsage>): CallUsage => ({
  calls: 1,
  promptTokens: 0,
  outputTokens: 0,
  thinkingTokens: 0,
  groundingQueries: 0,
  costUsd: 0,
  ...u,
});

describe("a search's usage, written with its outcome", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  const finished = async (calls?: CallUsage[]) => {
    const { user } = await createSignedInUser(db.sql);
    const id = await startSearchRecord(db.sql, { userId: user.id, question: 'AI meetups', website: '', model: 'gemini-flash-latest' });
    await finishSearchRecord(db.sql, id, { status: calls ? 'answered' : 'failed', calls });
    const [row] = await db.sql`
      select gemini_calls, prompt_tokens, output_tokens, thinking_tokens, grounding_queries, cost_usd from searches where id = ${id}`;
    return row;
  };

  it("adds up every call's tokens, queries and dollars", async () => {
    const answer = call({ promptTokens: 1200, outputTokens: 300, thinkingTokens: 80, groundingQueries: 1, costUsd: 0.015_123_4 });
    const extraction = call({ promptTokens: 900, outputTokens: 150, thinkingTokens: 20, costUsd: 0.001_222_2 });
    expect(await finished([answer, extraction])).toEqual({
      gemini_calls: 2,
      prompt_tokens: 2100,
      output_tokens: 450,
      thinking_tokens: 100,
      grounding_queries: 1,
      cost_usd: '0.016345', // 0.015123 + 0.001222: each call in micro-dollars
    });
  });

  it('rounds each call to micro-dollars as it is added, as when each call was its own update', async () => {
    // Half a micro-dollar each: stored one by one, each rounded up (0.000001 + 0.000001); summed first, 0.000001.
    expect((await finished([call({ costUsd: 0.000_000_5 }), call({ costUsd: 0.000_000_5 })]))!.cost_usd).toBe('0.000002');
  });

  it('a search without calls keeps zeros, its token counts included', async () => {
    expect(await finished()).toEqual({
      gemini_calls: 0,
      prompt_tokens: 0,
      output_tokens: 0,
      thinking_tokens: 0,
      grounding_queries: 0,
      cost_usd: '0.000000',
    });
  });
});

describe('a failed search gives its credit back', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('once, with the write that marks it failed, its part answer kept; a second failure of it changes nothing', async () => {
    const { user } = await createSignedInUser(db.sql);
    const row = { userId: user.id, question: 'AI meetups', website: '', model: 'gemini-flash-latest', filters: null };
    const { searchId, epoch } = await startSearchTakingCredit(db.sql, row, ALLOWANCES);
    // A second search's credit stays taken: the refund is this search's one credit, not all of them.
    await startSearchTakingCredit(db.sql, row, ALLOWANCES);
    expect((await getBilling(db.sql, user.id, ALLOWANCES))!.used).toBe(2);
    const fail = () =>
      failSearchGivingBack(db.sql, searchId, { error: 'The AI service failed.', answer: 'Here are', answerChars: 8 }, (tx) =>
        refundCredit(tx, user.id, epoch!),
      );
    const both = await Promise.all([fail(), fail()]);
    expect(both.sort()).toEqual([false, true]);
    expect((await getBilling(db.sql, user.id, ALLOWANCES))!.used).toBe(1);
    const [rec] = await db.sql`select status, error, answer, answer_chars from searches where id = ${searchId}`;
    expect(rec).toEqual({ status: 'failed', error: 'The AI service failed.', answer: 'Here are', answer_chars: 8 });
  });

  it('not for a search that already ended', async () => {
    const { user } = await createSignedInUser(db.sql);
    const row = { userId: user.id, question: 'AI meetups', website: '', model: 'gemini-flash-latest', filters: null };
    const { searchId, epoch } = await startSearchTakingCredit(db.sql, row, ALLOWANCES);
    await finishSearchRecord(db.sql, searchId, { status: 'answered', answer: 'Here are events' });
    expect(await failSearchGivingBack(db.sql, searchId, { error: 'late' }, (tx) => refundCredit(tx, user.id, epoch!))).toBe(false);
    expect((await getBilling(db.sql, user.id, ALLOWANCES))!.used).toBe(1);
    const [rec] = await db.sql`select status, answer from searches where id = ${searchId}`;
    expect(rec).toEqual({ status: 'answered', answer: 'Here are events' });
  });
});
