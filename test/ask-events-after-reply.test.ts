import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchReplySchema } from '../core/contract/event-replies';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';
import { searchWithEvents } from './support/search-events';

/**
 * An ask's reply ends with its answer; its events are found by the worker afterwards (the `search-events` queue),
 * and the search says `events_status` 'pending' until they are stored.
 */
describe("an ask's events, found after its reply has ended", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // No search-events worker yet: whatever the reply waited for, it was not the extraction.
    stack = await startTestStack({ searchEvents: false });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('ends the reply before the extraction is asked; the search is pending, then done with its events and their cost', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const before = stack.standins.gemini.state.requests;
    const res = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '', timezone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    const text = await res.text();
    const id = Number(res.headers.get('x-search-id'));

    const pending = searchReplySchema.parse(await (await fetch(`${stack.url}/api/searches/${id}`, { headers: { cookie } })).json());
    expect(pending).toMatchObject({ id, answer: text, events: [], events_status: 'pending' });
    // The answer's call only: the extraction has not been asked.
    expect(stack.standins.gemini.state.requests - before).toBe(1);
    const [answered] = await stack.db.sql<{ status: string; gemini_calls: number; cost_usd: string }[]>`
      select status, gemini_calls, cost_usd from searches where id = ${id}`;
    expect(answered).toMatchObject({ status: 'answered', gemini_calls: 1 });
    // The job carries the search's id only; what finding its events reads waits beside the search in Postgres.
    const job = await stack.deps.searchEventsQueue.getJob(`search-${id}`);
    expect(job?.data).toEqual({ searchId: id });
    const [kept] = await stack.db.sql<{ prompt: string | null }[]>`
      select events_input -> 'prepared' ->> 'prompt' as prompt from searches where id = ${id}`;
    expect(kept!.prompt).toContain('AI conferences in Berlin');

    await stack.startSearchEvents();
    const done = await searchWithEvents(stack.url, id, { cookie });
    expect(done.events_status).toBe('done');
    expect(done.events.find((e) => e.title === 'AI Summit Berlin')).toMatchObject({ new: true, all_day: true });
    const extraction = stack.standins.gemini.lastRequest!;
    expect(extraction.body.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
    expect(stack.standins.gemini.state.requests - before).toBe(2);
    // The extraction's usage is added to the search's row when its events end.
    const [ended] = await stack.db.sql<{ gemini_calls: number; cost_usd: string; events_input: unknown }[]>`
      select gemini_calls, cost_usd, events_input from searches where id = ${id}`;
    expect(ended!.gemini_calls).toBe(2);
    expect(Number(ended!.cost_usd)).toBeGreaterThan(Number(answered!.cost_usd));
    expect(ended!.events_input).toBeNull();
  });

  it('a search refused or failed before its answer has no events to wait for', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    stack.standins.gemini.failNext({ when: 'before', status: 500 }, 'answer');
    const res = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    expect(res.status).toBeGreaterThanOrEqual(500);
    const [row] = await stack.db.sql<{ status: string; events_status: string }[]>`
      select status, events_status from searches order by id desc limit 1`;
    expect(row).toEqual({ status: 'failed', events_status: 'done' });
  });
});
