import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getBilling } from '../db/accounts';
import { searchRowsOf } from '../db/searches';
import { type ChargedSearchOutcome, runChargedSearch } from '../core/search/charged-search';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { ALLOWANCES } from '../core/plans';

/**
 * An ask that asks Gemini while its credit is taken (docs/decisions/ask.md): the bookkeeping must come out exactly as
 * when Gemini is asked after the credit, and no text may reach the user before the credit is taken.
 */
describe('answering while the credit is taken', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterEach(() => stack.standins.gemini.reset());
  afterAll(async () => {
    await stack?.close();
  });

  async function search(creditsLeft: number) {
    const { user } = await createSignedInUser(stack.db.sql);
    await stack.db.sql`update accounts set searches_used = ${10 - creditsLeft} where user_id = ${user.id}`;
    const texts: string[] = [];
    const outcome: ChargedSearchOutcome = await runChargedSearch(
      { ...stack.deps, sql: stack.db.sql },
      {
        userId: user.id,
        input: { question: 'AI conferences in Berlin', website: '', timezone: 'Europe/Berlin' },
        onText: (text) => void texts.push(text),
        answerWhileCharging: true,
      },
    );
    const searches = (await searchRowsOf(stack.db.sql, user.id)).map((s) => s.status);
    return { outcome, texts, searches, used: (await getBilling(stack.db.sql, user.id, ALLOWANCES))!.used };
  }

  it('answers and charges once when a credit is left', async () => {
    const { outcome, texts, searches, used } = await search(3);
    expect(outcome.kind).toBe('answered');
    expect(texts.join('')).toContain('AI Summit Berlin');
    expect(searches).toEqual(['answered']);
    expect(used).toBe(8);
  });

  it('refuses without any text and aborts the request Gemini had begun when no credit is left', async () => {
    // The stand-in holds its first chunk long enough that only an abort ends the request early.
    stack.standins.gemini.setFirstChunkDelay(5_000);
    const requests = stack.standins.gemini.state.requests;
    const aborted = stack.standins.gemini.state.abortedRequests;
    const { outcome, texts, searches, used } = await search(0);
    expect(outcome).toMatchObject({ kind: 'no_credits', message: 'You have used all 10 searches of your free plan this month.' });
    expect(texts).toEqual([]);
    expect(searches).toEqual(['refused']);
    expect(used).toBe(10);
    expect(stack.standins.gemini.state.requests).toBe(requests + 1);
    await until('Gemini to see the request aborted', () => stack.standins.gemini.state.abortedRequests === aborted + 1);
  });

  it('gives the credit back when Gemini refuses before any text', async () => {
    stack.standins.gemini.failNext({ when: 'before', status: 503 }, 'answer');
    const { outcome, texts, searches, used } = await search(3);
    expect(outcome).toMatchObject({ kind: 'failed', delivered: false });
    expect(texts).toEqual([]);
    expect(searches).toEqual(['failed']);
    expect(used).toBe(7);
  });
});
