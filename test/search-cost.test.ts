import { manualFireJob } from '../dev/harness/fire-job';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateCost, priceTable } from '../core/gemini/prices';
import type { GeminiUsage } from '../core/gemini/usage';
import { PLANS } from '../core/plans';
import { monthOtherGeminiCostUsd } from '../db/gemini-costs';
import { monthSpendUsd } from '../db/searches';
import { insertTimer } from '../db/timers';
import { createRunTimerProcessor } from '../worker/jobs/run-timer';
import { ask } from './support/ask';
import { searchWithEvents } from './support/search-events';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';

const ADMIN = { user: 'ops', password: 'scrape-secret' };

interface CostRow {
  gemini_calls: number;
  prompt_tokens: number;
  output_tokens: number;
  thinking_tokens: number;
  grounding_queries: number;
  cost_usd: string;
}

// Google's published prices for Gemini 3.5 Flash-Lite (what gemini-flash-lite-latest, the default model, answers
// with in the stand-in), written out here rather than read from the code under test: no dated row, so the same
// from 2027-01-01.
const FLASH_LITE_35 = { input: 0.3, output: 2.5 };
const SEARCH_QUERY_USD = 14 / 1000;
// Gemini 2.5 Flash-Lite, the default model of the extraction call, from the same table.
const FLASH_LITE_25 = { input: 0.1, output: 0.4 };

/** Every search records what its Gemini calls used and cost, and the operators' metrics count it. */
describe('what a search costs', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Counts the updates of `searches` rows from now on, with what each wrote (a trigger in this stack's database). */
  const noteSearchWrites = async () => {
    await stack.db.sql.unsafe(`
      create table if not exists search_writes (at bigserial, search_id bigint, status text, gemini_calls int, cost_usd numeric,
        prompt_tokens int, output_tokens int, thinking_tokens int);
      create or replace function note_search_write() returns trigger language plpgsql as $$
        begin insert into search_writes (search_id, status, gemini_calls, cost_usd, prompt_tokens, output_tokens, thinking_tokens)
          values (new.id, new.status, new.gemini_calls, new.cost_usd, new.prompt_tokens, new.output_tokens, new.thinking_tokens);
          return new; end $$;
      create or replace trigger note_search_write after update on searches for each row execute function note_search_write();
      truncate search_writes;`);
    return async (userId: number) => [
      ...(await stack.db.sql`
        select w.status, w.gemini_calls, w.cost_usd, w.prompt_tokens, w.output_tokens, w.thinking_tokens
        from search_writes w join searches s on s.id = w.search_id
        where s.user_id = ${userId} order by w.at`),
    ];
  };

  const costOf = async (userId: number) => {
    const [row] = await stack.db.sql<CostRow[]>`
      select gemini_calls, prompt_tokens, output_tokens, thinking_tokens, grounding_queries, cost_usd
      from searches where user_id = ${userId} order by id desc limit 1`;
    return row!;
  };

  it('an ask: the answer, then the event extraction once its events are stored; tokens, search queries and dollars', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const writes = await noteSearchWrites();
    const res = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    await res.text();
    await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie });
    const row = await costOf(user.id);
    // The row is inserted as the search starts and updated twice after the answer: its outcome with the answer's
    // call as the reply ends, then the extraction's once the worker has stored the events (docs/decisions/ask.md).
    const [answered, withEvents, ...more] = await writes(user.id);
    expect(answered).toMatchObject({ status: 'answered', gemini_calls: 1 });
    expect(withEvents).toMatchObject({ status: 'answered', gemini_calls: 2, cost_usd: row.cost_usd });
    expect(more).toEqual([]);
    // The grounded answer ran the one search query the prompt asks for; the extraction (structured output, no
    // tools) none.
    expect(row).toMatchObject({ gemini_calls: 2, grounding_queries: 1 });
    expect(answered!.thinking_tokens).toBeGreaterThan(0);
    // The answer at Gemini 3.5 Flash-Lite's price (docs/decisions/gemini-and-cost.md), its extraction on Gemini 2.5 Flash-Lite
    // (docs/decisions/gemini-and-cost.md), which does not think.
    const price = FLASH_LITE_35;
    const answerUsd =
      (answered!.prompt_tokens * price.input + (answered!.output_tokens + answered!.thinking_tokens) * price.output) / 1e6 +
      SEARCH_QUERY_USD;
    expect(Number(answered!.cost_usd)).toBeCloseTo(answerUsd, 5);
    expect(row.thinking_tokens).toBe(answered!.thinking_tokens);
    const extractionUsd =
      ((row.prompt_tokens - answered!.prompt_tokens) * FLASH_LITE_25.input +
        (row.output_tokens - answered!.output_tokens) * FLASH_LITE_25.output) /
      1e6;
    expect(row.prompt_tokens - answered!.prompt_tokens).toBeGreaterThan(0);
    expect(Number(row.cost_usd)).toBeCloseTo(answerUsd + extractionUsd, 5);

    const metrics = await (
      await fetch(`${stack.url}/metrics`, {
        headers: { authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}` },
      })
    ).text();
    // Counted under the model the alias stood for, as the reply's modelVersion names it.
    expect(metrics).toMatch(/gemini_cost_usd_total\{model="gemini-3.5-flash-lite",kind="ask"\} 0\.0\d+/);
    expect(metrics).toMatch(/gemini_grounding_queries_total\{model="gemini-3.5-flash-lite",kind="ask"\} [1-9]/);
    expect(metrics).toMatch(/gemini_calls_total\{model="gemini-2.5-flash-lite",kind="extraction"\} [1-9]/);
    expect(metrics).not.toMatch(/gemini_calls_total\{model="gemini-3.5-flash-lite",kind="extraction"\}/);
  });

  it('a timer run asks on the Flex tier: its tokens cost half, its search queries the same', async () => {
    const { user } = await createSignedInUser(stack.db.sql);
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI conferences in Berlin', web: '' }));
    const processJob = createRunTimerProcessor({ ...stack.deps, sql: stack.db.sql, deliveriesQueue: stack.deliveriesQueue });
    const at = Date.UTC(2026, 5, 1, 7);
    const job = manualFireJob(timer.id, at);
    await processJob(job);
    expect(stack.standins.gemini.state.lastAnswerRequest?.body.serviceTier).toBe('flex');
    const row = await costOf(user.id);
    // One call on Gemini 3: the answer and its events together (test/search-calls.test.ts).
    expect(row).toMatchObject({ gemini_calls: 1, grounding_queries: 1 });
    // Exactly half the token price, the query at full price.
    const price = FLASH_LITE_35;
    const tokens = (row.prompt_tokens * price.input + (row.output_tokens + row.thinking_tokens) * price.output) / 1e6;
    expect(Number(row.cost_usd)).toBeCloseTo(tokens / 2 + SEARCH_QUERY_USD, 5);
  });

  it('a paid plan at full use costs at most 40% of its price on the default models, today and from 2027-01-01', async () => {
    // One grounded ask (the answer, then its extraction) and one grounded timer run on Flex, on the stand-in's
    // sizes of real grounded replies (18,329 tool-use prompt tokens a grounded 3.x call), priced with the
    // product's own table as today and as from 2027-01-01, when Gemini 3.8 Flash's token prices double.
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const writes = await noteSearchWrites();
    const res = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    await res.text();
    await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie });
    const asked = await costOf(user.id);
    const [answered] = await writes(user.id);
    const usage = (prompt: number, output: number, thinking: number, queries: number): GeminiUsage => ({
      calls: 1,
      promptTokens: prompt,
      outputTokens: output,
      thinkingTokens: thinking,
      groundingQueries: queries,
      groundedCalls: queries > 0 ? 1 : 0,
    });
    const answerUsage = usage(answered!.prompt_tokens, answered!.output_tokens, answered!.thinking_tokens, asked.grounding_queries);
    const extractionUsage = usage(
      asked.prompt_tokens - answered!.prompt_tokens,
      asked.output_tokens - answered!.output_tokens,
      asked.thinking_tokens - answered!.thinking_tokens,
      0,
    );

    const runner = await createSignedInUser(stack.db.sql);
    const timer = await insertTimer(stack.db.sql, runner.user.id, dailyTimer({ ques: 'AI conferences in Berlin', web: '' }));
    const processJob = createRunTimerProcessor({ ...stack.deps, sql: stack.db.sql, deliveriesQueue: stack.deliveriesQueue });
    await processJob(manualFireJob(timer.id, Date.UTC(2026, 5, 3, 7)));
    const ran = await costOf(runner.user.id);
    const runUsage = usage(ran.prompt_tokens, ran.output_tokens, ran.thinking_tokens, ran.grounding_queries);

    const table = priceTable(stack.config.gemini.prices);
    const answering = stack.standins.gemini.models.answeringModel(stack.config.gemini.model);
    expect(answering).toBe('gemini-3.5-flash-lite');
    const extracting = stack.config.gemini.extractionModel ?? answering;
    for (const at of [new Date(), new Date('2027-01-01T12:00:00Z')]) {
      const askUsd = estimateCost(table, answering, answerUsage, at) + estimateCost(table, extracting, extractionUsage, at);
      const runUsd = estimateCost(table, answering, runUsage, at, 'flex');
      for (const plan of PLANS.filter((p) => p.priceCents > 0)) {
        const limit = (0.4 * plan.priceCents) / 100;
        const when = at.toISOString().slice(0, 10);
        expect(askUsd * plan.searchesPerMonth, `${plan.name}'s grounded asks on ${when}`).toBeLessThanOrEqual(limit);
        expect(runUsd * plan.searchesPerMonth, `${plan.name}'s timer runs on ${when}`).toBeLessThanOrEqual(limit);
      }
    }
  });

  it('the spend guard: once the month reached GEMINI_MONTHLY_BUDGET_USD, timer runs are skipped without Gemini, asks go on', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    // An earlier search this month already cost more than the budget (its extraction included, once its events end).
    const earlier = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    await earlier.text();
    await searchWithEvents(stack.url, earlier.headers.get('x-search-id'), { cookie });
    const spent = Number((await costOf(user.id)).cost_usd);
    const config = { ...stack.config, gemini: { ...stack.config.gemini, monthlyBudgetUsd: spent / 2 } };
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI conferences in Berlin', web: '' }));
    const processJob = createRunTimerProcessor({ ...stack.deps, config, sql: stack.db.sql, deliveriesQueue: stack.deliveriesQueue });
    const at = Date.UTC(2026, 5, 2, 7);
    const job = manualFireJob(timer.id, at);
    const requests = stack.standins.gemini.state.requests;
    expect(await processJob(job)).toBe('skipped');
    expect(stack.standins.gemini.state.requests).toBe(requests);
    const [run] = await stack.db.sql<
      { status: string; error: string }[]
    >`select status, error from timer_runs where timer_id = ${timer.id}`;
    expect(run).toMatchObject({ status: 'skipped', error: expect.stringMatching(/paused until next month.*AI budget/) });
    const [account] = await stack.db.sql<{ used: number }[]>`select searches_used as used from accounts where user_id = ${user.id}`;
    expect(account!.used).toBe(1);
    // An ask is a person waiting: it is never stopped by the guard.
    expect((await ask(stack.url, cookie, { ques: 'AI meetups in Berlin', web: '' })).status).toBe(200);

    // Under the budget, the same timer runs.
    const roomy = { ...stack.config, gemini: { ...stack.config.gemini, monthlyBudgetUsd: spent * 100 } };
    const running = createRunTimerProcessor({ ...stack.deps, config: roomy, sql: stack.db.sql, deliveriesQueue: stack.deliveriesQueue });
    expect(await running(manualFireJob(timer.id, at + 86_400_000, `manual:${timer.id}:2`))).toBe('succeeded');
  });

  it('a sentence the model reads for Describe it is counted and priced under kind "describe"; one the parser reads is not', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const describe = (sentence: string) =>
      fetch(`${stack.url}/api/timers/describe`, {
        method: 'POST',
        headers: { cookie, origin: stack.url, 'content-type': 'application/json' },
        body: JSON.stringify({ sentence, timezone: 'Europe/Berlin' }),
      });
    const described = () => metricsText().then((m) => m.match(/gemini_calls_total\{model="[^"]+",kind="describe"\} (\d+)/)?.[1]);
    const before = Number((await described()) ?? 0);
    expect((await describe('every day at 9, AI meetups in Berlin')).status).toBe(200);
    expect(Number((await described()) ?? 0)).toBe(before);
    expect((await describe('Thursday evenings around 7, design meetups in Hamburg')).status).toBe(200);
    expect(Number(await described())).toBe(before + 1);
    const costOfDescribing = async () =>
      Number((await metricsText()).match(/gemini_cost_usd_total\{model="[^"]+",kind="describe"\} ([\d.e-]+)/)?.[1] ?? 0);
    expect(await costOfDescribing()).toBeGreaterThan(0);
    // Describing is a budget line of its own: the spend guard's month holds only what the month's searches cost,
    // so uncharged describe calls never pause everyone's timer runs.
    const month = new Date(`${new Date().toISOString().slice(0, 7)}-01T00:00:00Z`);
    const [searches] = await stack.db.sql<
      { usd: string }[]
    >`select coalesce(sum(cost_usd), 0) as usd from searches where started_at >= ${month}`;
    expect(await monthSpendUsd(stack.db.sql, month)).toBeCloseTo(Number(searches!.usd), 5);
    expect(await monthOtherGeminiCostUsd(stack.db.sql, new Date())).toBeCloseTo(await costOfDescribing(), 5);
  });

  const metricsText = async () =>
    (
      await fetch(`${stack.url}/metrics`, {
        headers: { authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}` },
      })
    ).text();
});
