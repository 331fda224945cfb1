import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBilling } from '../db/accounts';
import { CUT_NOTE } from '../core/gemini/answer';
import { ALLOWANCES } from '../core/plans';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';

/**
 * An ask when Gemini answers as it really does at its edges (shapes from real recorded replies): a 429 that says
 * how long to wait, an answer cut at its output limit, and a stream that breaks after Google billed its tokens.
 */
describe('POST /api/ask, Gemini at its edges', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const lastSearch = async (userId: number) => {
    const [row] = await stack.db.sql<{ status: string; cost_usd: string; prompt_tokens: number; gemini_calls: number }[]>`
      select status, cost_usd, prompt_tokens, gemini_calls from searches where user_id = ${userId} order by id desc limit 1`;
    return row!;
  };

  it("passes a busy Gemini's retryDelay (34.4 s) on as Retry-After: 35", async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    stack.standins.gemini.failNext({ when: 'before', status: 429 }, 'answer');
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('35');
    expect(await res.text()).toMatch(/too many requests/);
  });

  it('shows an answer cut at MAX_TOKENS as cut, gives its credit back, and records what it cost', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    stack.standins.gemini.failNext({ when: 'max_tokens', afterChunks: 2 }, 'answer');
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(CUT_NOTE.trim());
    expect((await getBilling(stack.db.sql, user.id, ALLOWANCES))!.used).toBe(0);
    const search = await lastSearch(user.id);
    expect(search.status).toBe('answered');
    expect(Number(search.cost_usd)).toBeGreaterThan(0);
  });

  it('records the tokens of a stream that broke after some text, so the monthly spend sees them', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    stack.standins.gemini.failNext({ when: 'after', status: 500 }, 'answer');
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: '' });
    await res.text();
    const search = await lastSearch(user.id);
    expect(search.status).toBe('failed');
    expect(search.gemini_calls).toBe(1);
    expect(search.prompt_tokens).toBeGreaterThan(0);
    expect(Number(search.cost_usd)).toBeGreaterThan(0);
  });
});
