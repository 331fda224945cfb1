import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../core/config';
import { FEW_SEARCHES } from '../core/search/prompt';
import { insertTimer } from '../db/timers';
import { manualFireJob } from '../dev/harness/fire-job';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import type { GeminiRequestRecord } from '../dev/standins/gemini';
import { createRunTimerProcessor } from '../worker/jobs/run-timer';
import { ask } from './support/ask';
import { searchWithEvents } from './support/search-events';

interface SearchRow {
  id: number;
  gemini_calls: number;
  grounding_queries: number;
  answer: string;
}

/**
 * Which Gemini calls a search makes (docs/decisions/gemini-and-cost.md), through the official client against the stand-in, which
 * refuses structured output with Google Search on Gemini 2.5 as Google does: a timer run on Gemini 3 asks for
 * its answer and events in one call, 2.5 in two; the extraction is skipped when the website's own data gave
 * every event the answer names; a search's calls stop grounding at GEMINI_MAX_SEARCH_QUERIES.
 */
describe('the Gemini calls of a search', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { USER_RATE_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const gemini = () => stack.standins.gemini;
  /** Every request the stand-in gets while `work` runs, in order. */
  async function requestsDuring(work: () => Promise<unknown>): Promise<GeminiRequestRecord[]> {
    const before = gemini().state.requests;
    await work();
    const made = gemini().state.requests - before;
    return made === 0 ? [] : gemini().state.recentRequests.slice(-made);
  }

  const lastSearch = async (userId: number) => {
    const [row] = await stack.db.sql<SearchRow[]>`
      select id, gemini_calls, grounding_queries, answer from searches where user_id = ${userId} order by id desc limit 1`;
    return row!;
  };
  const runEvents = async (userId: number) => {
    const rows = await stack.db.sql<{ title: string }[]>`
      select e.event->>'title' as title from timer_run_events e join timer_runs r on r.id = e.run_id
      join timers t on t.id = r.timer_id where t.user_id = ${userId} order by e.position`;
    return rows.map((r) => r.title);
  };

  async function timerRun(web: string, gemini: Partial<Config['gemini']> = {}) {
    const { user } = await createSignedInUser(stack.db.sql);
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI conferences in Berlin', web }));
    const config = { ...stack.config, gemini: { ...stack.config.gemini, ...gemini } };
    const processJob = createRunTimerProcessor({ ...stack.deps, config, sql: stack.db.sql, deliveriesQueue: stack.deliveriesQueue });
    let outcome: unknown;
    const requests = await requestsDuring(async () => {
      outcome = await processJob(manualFireJob(timer.id, Date.UTC(2026, 5, 1, 7)));
    });
    expect(outcome).toBe('succeeded');
    return { requests, search: await lastSearch(user.id), events: await runEvents(user.id) };
  }

  const tools = (r: GeminiRequestRecord) => (r.body.tools ?? []).map((t) => Object.keys(t as object)[0]);
  const mime = (r: GeminiRequestRecord) => r.body.generationConfig?.responseMimeType;

  it('a timer run on the default model (a Gemini 3 family) makes exactly one call, on Flex: answer and events together', async () => {
    expect(stack.config.gemini.model).toBe('gemini-flash-lite-latest');
    const { requests, search, events } = await timerRun('');
    expect(requests).toHaveLength(1);
    const [one] = requests;
    expect(one!.body.serviceTier).toBe('flex');
    expect(tools(one!)).toEqual(['googleSearch']);
    expect(mime(one!)).toBe('application/json');
    expect(one!.prompt).toContain(FEW_SEARCHES);
    expect(search).toMatchObject({ gemini_calls: 1, grounding_queries: 1 });
    // The user reads the answer's text, never the JSON it came in, with the grounding sources after it.
    expect(search.answer).toMatch(/^Here are events that match/);
    expect(search.answer).toContain('Sources:');
    expect(events).toEqual(['AI Summit Berlin', 'Berlin Machine Learning Meetup']);
  });

  it('a timer run on Gemini 2.5, which refuses JSON output with Google Search, makes two calls, and none is refused', async () => {
    const refused = gemini().state.refusedRequests;
    const { requests, search, events } = await timerRun('', { model: 'gemini-2.5-flash' });
    expect(requests.map((r) => [tools(r), mime(r) ?? null])).toEqual([
      [['googleSearch'], null],
      [[], 'application/json'],
    ]);
    expect(gemini().state.refusedRequests).toBe(refused);
    expect(search.gemini_calls).toBe(2);
    expect(events).toEqual(['AI Summit Berlin', 'Berlin Machine Learning Meetup']);
  });

  it('a model that refuses the one call anyway is asked in two, and not asked the one call again', async () => {
    // As if Google changed the model under its name: the table says yes, the API says no.
    gemini().models.change('gemini-3.6-flash', { structuredWithTools: false });
    const refused = gemini().state.refusedRequests;
    const first = await timerRun('', { model: 'gemini-3.6-flash' });
    expect(gemini().state.refusedRequests).toBe(refused + 1);
    expect(first.requests.map(mime)).toEqual(['application/json', undefined, 'application/json']);
    expect(first.search.gemini_calls).toBe(2);
    expect(first.events).toHaveLength(2);
    const second = await timerRun('', { model: 'gemini-3.6-flash' });
    expect(second.requests.map(mime)).toEqual([undefined, 'application/json']);
    expect(gemini().state.refusedRequests).toBe(refused + 1);
  });

  it('an unreadable one-call reply is asked again as a plain answer, grounded while under the ceiling', async () => {
    gemini().answerNext('{"answer": "cut off');
    const { requests, search, events } = await timerRun('');
    expect(requests.map((r) => [tools(r), mime(r) ?? null])).toEqual([
      [['googleSearch'], 'application/json'],
      [['googleSearch'], null],
      [[], 'application/json'],
    ]);
    expect(search).toMatchObject({ gemini_calls: 3, grounding_queries: 2 });
    expect(search.answer).not.toMatch(/did not search the web again/);
    expect(events).toHaveLength(2);
  });

  it('once the search ran GEMINI_MAX_SEARCH_QUERIES, its retry goes without Google Search and the answer says so', async () => {
    gemini().answerNext('{"answer": "cut off');
    const { requests, search } = await timerRun('', { maxSearchQueries: 1 });
    expect(requests.map(tools)).toEqual([['googleSearch'], [], []]);
    // The queries beyond the ceiling were never run, so never paid for.
    expect(search).toMatchObject({ gemini_calls: 3, grounding_queries: 1 });
    expect(search.answer.trimEnd()).toMatch(
      /Note: this answer did not search the web again, because this search had already run its 1 web search\. Check dates on the events' own pages\.$/,
    );
  });

  it("an ask from a website whose answer names only the website's events makes no extraction call", async () => {
    const site = `${stack.standins.url}/sites/berlin-ai.html`;
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const requests = await requestsDuring(async () => {
      const res = await ask(stack.url, cookie, { ques: 'AI events', web: site });
      await res.text();
      // The events are found after the reply: the calls are all made once they are stored.
      await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie });
    });
    expect(requests.map(mime)).toEqual([undefined]);
    const search = await lastSearch(user.id);
    expect(search.gemini_calls).toBe(1);
    const [stored] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from search_events where search_id = ${search.id}`;
    expect(stored!.n).toBe(3);
  });

  it('an answer from a website that links to something else gets its extraction call', async () => {
    const site = `${stack.standins.url}/sites/berlin-ai.html`;
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    gemini().answerNext(
      'The Applied ML Summit is listed there.\nAlso: Berlin AI Night, 3 June, https://elsewhere.example/berlin-ai-night\n',
    );
    const requests = await requestsDuring(async () => {
      const res = await ask(stack.url, cookie, { ques: 'AI events', web: site });
      await res.text();
      await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie });
    });
    expect(requests.map(mime)).toEqual([undefined, 'application/json']);
    expect((await lastSearch(user.id)).gemini_calls).toBe(2);
  });

  it('a timer run from a website with structured events: the plain answer, and no extraction (on 2.5 as well)', async () => {
    const site = `${stack.standins.url}/sites/berlin-ai.html`;
    for (const model of ['gemini-flash-latest', 'gemini-2.5-flash']) {
      const { requests, events } = await timerRun(site, { model });
      expect(requests.map((r) => [tools(r), mime(r) ?? null])).toEqual([[[], null]]);
      expect(events.length).toBeGreaterThan(0);
    }
  });
});
