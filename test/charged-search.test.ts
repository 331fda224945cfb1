import { manualFireJob } from '../dev/harness/fire-job';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeminiFailure } from '../dev/standins/gemini';
import { insertTimer } from '../db/timers';
import { createRunTimerProcessor } from '../worker/jobs/run-timer';
import { ask } from './support/ask';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { dailyTimer } from '../dev/harness/timer-input';

/**
 * The same cases through both adapters of the one charged search (core/search/charged-search.ts): an
 * interactive ask over HTTP and a timer run through the worker's job processor. Each must leave the same
 * search record and the same credit count.
 */
describe('one charged search behind /api/ask and a timer run', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  interface Case {
    name: string;
    web: string;
    creditsLeft?: number;
    gemini?: GeminiFailure;
    expected: { searches: string[]; used: number; geminiCalled: boolean };
    /**
     * Where an ask differs: it asks Gemini as soon as it is admitted, while its credit is taken, unless its user
     * is marked out of credit in Redis (test/ask-gemini-first.test.ts); a refused take drops the request.
     */
    askGeminiCalled?: boolean;
  }
  const cases: Case[] = [
    { name: 'an answer', web: '', expected: { searches: ['answered'], used: 1, geminiCalled: true } },
    {
      name: 'the AI service refusing before any text',
      web: '',
      gemini: { when: 'before', status: 400 },
      expected: { searches: ['failed'], used: 0, geminiCalled: true },
    },
    {
      name: 'no searches left',
      web: '',
      creditsLeft: 0,
      expected: { searches: ['refused'], used: 10, geminiCalled: false },
      askGeminiCalled: true,
    },
    { name: 'a refused website', web: 'http://10.0.0.1/events', expected: { searches: ['refused'], used: 0, geminiCalled: false } },
  ];

  async function outcomeOf(userId: number) {
    const rows = await stack.db.sql<{ status: string }[]>`select status from searches where user_id = ${userId} order by id`;
    const [account] = await stack.db.sql<{ used: number }[]>`select searches_used as used from accounts where user_id = ${userId}`;
    return { searches: rows.map((r) => r.status), used: account!.used };
  }

  async function prepare(c: Case) {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    if (c.creditsLeft !== undefined)
      await stack.db.sql`update accounts set searches_used = ${10 - c.creditsLeft} where user_id = ${user.id}`;
    if (c.gemini) stack.standins.gemini.failNext(c.gemini);
    return { userId: user.id, cookie, requestsBefore: stack.standins.gemini.state.requests };
  }

  const viaAsk = async (c: Case) => {
    const { userId, cookie, requestsBefore } = await prepare(c);
    await (await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: c.web })).text();
    return { ...(await outcomeOf(userId)), geminiCalled: stack.standins.gemini.state.requests > requestsBefore };
  };

  const viaTimerRun = async (c: Case) => {
    const { userId, requestsBefore } = await prepare(c);
    const timer = await insertTimer(stack.db.sql, userId, dailyTimer({ ques: 'AI conferences in Berlin', web: c.web }));
    const processJob = createRunTimerProcessor({ ...stack.deps, sql: stack.db.sql, deliveriesQueue: stack.deliveriesQueue });
    const at = Date.UTC(2026, 5, 1, 7);
    const job = manualFireJob(timer.id, at);
    await processJob(job).catch(() => 'failed');
    return { ...(await outcomeOf(userId)), geminiCalled: stack.standins.gemini.state.requests > requestsBefore };
  };

  it('an ask streams its answer; a timer run, which nobody reads along, asks for it whole', async () => {
    const answered = cases[0]!;
    await viaAsk(answered);
    expect(stack.standins.gemini.state.lastAnswerRequest!.method).toBe('streamGenerateContent');
    await viaTimerRun(answered);
    expect(stack.standins.gemini.state.lastAnswerRequest!.method).toBe('generateContent');
  });

  for (const c of cases) {
    it(`${c.name}: the same record and charge either way`, async () => {
      expect(await viaAsk(c)).toEqual({ ...c.expected, geminiCalled: c.askGeminiCalled ?? c.expected.geminiCalled });
      expect(await viaTimerRun(c)).toEqual(c.expected);
    });
  }
});
