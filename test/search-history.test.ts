import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { type SearchHistoryReply, searchHistoryReplySchema } from '../core/contract/search-history';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';
import { pageCalls } from './support/page-calls';
import { searchWithEvents } from './support/search-events';

/**
 * A user's search history (GET /api/searches, GET /v1/searches) against real Postgres, Redis, the worker and the
 * stand-ins: only their own answered searches, newest first, paged by a cursor; never a timer's runs.
 */
describe('search history', () => {
  let stack: TestStack;
  let cookie: string;
  let otherCookie: string;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true });
    ({ cookie } = await createSignedInUser(stack.db.sql));
    ({ cookie: otherCookie } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const { call, runNow } = pageCalls(() => ({ url: stack.url, cookie }));
  const site = (path: string) => `${stack.standins.url}/sites/${path}`;
  const history = async (query = '', as = cookie): Promise<SearchHistoryReply> => {
    const res = await call('GET', `/api/searches${query}`, undefined, as);
    expect(res.status).toBe(200);
    return searchHistoryReplySchema.parse(await res.json());
  };

  /** One search asked as the page asks it, its events found; its id. */
  async function asked(ques: string, web = ''): Promise<number> {
    const res = await ask(stack.url, cookie, { ques, web, timezone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    await res.text();
    const id = Number(res.headers.get('x-search-id'));
    await searchWithEvents(stack.url, id, { cookie });
    return id;
  }

  it('lists the own answered searches newest first, with question, website, time and events found, a page at a time', async () => {
    const before = Date.now();
    expect(await history()).toEqual({ searches: [], cursor: null, has_more: false });
    const berlin = await asked('AI events', site('berlin-ai.html'));
    const lisbon = await asked('AI conferences in Lisbon');
    const third = await asked('Robotics meetups', site('berlin-ai.html'));
    // A timer's run searches too, but it is the timer's, listed under its runs, not here.
    const timer = (await (
      await call('POST', '/api/schedule', dailyTimer({ ques: 'Timer question', web: site('berlin-ai.html') }))
    ).json()) as {
      id: number;
    };
    expect((await runNow(timer.id)).status).toBe('succeeded');
    // Another user's search is theirs alone.
    await (await ask(stack.url, otherCookie, { ques: 'Someone else’s question', web: '' })).text();

    const all = await history();
    expect(all.searches.map((s) => [s.id, s.question, s.website, s.events_count, s.events_status])).toEqual([
      [third, 'Robotics meetups', site('berlin-ai.html'), 3, 'done'],
      [lisbon, 'AI conferences in Lisbon', '', expect.any(Number), 'done'],
      [berlin, 'AI events', site('berlin-ai.html'), 3, 'done'],
    ]);
    for (const s of all.searches) {
      expect(Date.parse(s.created_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(s.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(all).toMatchObject({ cursor: String(berlin), has_more: false });

    // Two a page: the cursor of one page is the `before` of the next.
    const first = await history('?limit=2');
    expect(first.searches.map((s) => s.id)).toEqual([third, lisbon]);
    expect(first).toMatchObject({ cursor: String(lisbon), has_more: true });
    const second = await history(`?limit=2&before=${first.cursor}`);
    expect(second.searches.map((s) => s.id)).toEqual([berlin]);
    expect(second).toMatchObject({ cursor: String(berlin), has_more: false });
    expect(await history(`?limit=2&before=${second.cursor}`)).toEqual({ searches: [], cursor: null, has_more: false });
    // Another user's cursor names no search of this user's: nothing older.
    expect((await history(`?before=${berlin}`, otherCookie)).searches).toEqual([]);
    expect((await history('', otherCookie)).searches.map((s) => s.question)).toEqual(['Someone else’s question']);

    for (const bad of ['?before=soon', '?before=0', '?limit=0', '?limit=51', '?limit=two']) {
      const res = await call('GET', `/api/searches${bad}`);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { error: string }).error, bad).toMatch(/^(before|limit) must be/);
    }
    expect((await fetch(`${stack.url}/api/searches`)).status).toBe(401);
  });

  it('answers the same history at GET /v1/searches for a token with the read scope', async () => {
    const made = await call('POST', '/api/tokens', { name: 'history', scopes: ['read'] });
    expect(made.status).toBe(201);
    const token = createdApiTokenReplySchema.parse(await made.json()).token;
    const v1 = await fetch(`${stack.url}/v1/searches?limit=2`, { headers: { authorization: `Bearer ${token}` } });
    expect(v1.status).toBe(200);
    expect(searchHistoryReplySchema.parse(await v1.json())).toEqual(await history('?limit=2'));
    const searchOnly = await call('POST', '/api/tokens', { name: 'search only', scopes: ['search'] });
    const searchToken = createdApiTokenReplySchema.parse(await searchOnly.json()).token;
    expect((await fetch(`${stack.url}/v1/searches`, { headers: { authorization: `Bearer ${searchToken}` } })).status).toBe(403);
  });

  it('keeps the events a search\'s filters left out apart: hidden_events, not counted, not "seen"', async () => {
    const { cookie: own } = await createSignedInUser(stack.db.sql);
    const res = await ask(stack.url, own, {
      ques: 'AI events in person',
      web: site('berlin-ai.html'),
      timezone: 'Europe/Berlin',
      filters: { attendance: 'in_person' },
    });
    expect(res.status).toBe(200);
    await res.text();
    const id = res.headers.get('x-search-id');
    const filtered = await searchWithEvents(stack.url, id, { cookie: own });
    expect(filtered.events.map((e) => e.title)).toEqual(['Applied ML Summit Berlin 2026', 'Berlin LLM Meetup #42: Retrieval that works']);
    expect(filtered.hidden_events.map((e) => [e.title, e.online])).toEqual([['Hands-on: Fine-tuning open models (online)', true]]);
    const listed = searchHistoryReplySchema.parse(await (await call('GET', '/api/searches', undefined, own)).json());
    expect(listed.searches.map((s) => s.events_count)).toEqual([2]);
    // Never shown unasked, so a later search without filters still finds it new.
    const open = await ask(stack.url, own, { ques: 'AI events', web: site('berlin-ai.html'), timezone: 'Europe/Berlin' });
    await open.text();
    const all = await searchWithEvents(stack.url, open.headers.get('x-search-id'), { cookie: own });
    expect(all.events.map((e) => [e.title, e.new])).toEqual([
      ['Applied ML Summit Berlin 2026', false],
      ['Berlin LLM Meetup #42: Retrieval that works', false],
      ['Hands-on: Fine-tuning open models (online)', true],
    ]);
    expect(all.hidden_events).toEqual([]);
  });
});
