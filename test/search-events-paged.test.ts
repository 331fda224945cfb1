import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { type SearchReply, searchReplySchema } from '../core/contract/event-replies';
import { STORED_EVENTS_PER_SEARCH } from '../core/search/stored-events';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';
import { searchWithEvents } from './support/search-events';
import { startMeetupsSite } from './support/meetups-site';

const FOUND = 700;

/**
 * A website whose page lists 700 events, one every twelve hours from tomorrow (h-event): a search of it keeps the
 * 500 nearest, says how many it left out, and its events are read whole or a page at a time, on /api and /v1.
 */
describe('a search’s stored events, bounded and paged', () => {
  let stack: TestStack;
  let site: Awaited<ReturnType<typeof startMeetupsSite>>;
  beforeAll(async () => {
    site = await startMeetupsSite(FOUND);
    stack = await startTestStack({ worker: true, env: { WEBSITE_FETCH_ALLOW: `127.0.0.1:${site.port}` } });
  });
  afterAll(async () => {
    await stack?.close();
    await site?.close();
  });

  const numberOf = (e: { title: string }) => Number(/^Harbour Meetup No\. (\d+)$/.exec(e.title)?.[1] ?? Number.NaN);

  it('keeps the nearest 500, says how many it left out, and pages them by a cursor on /api and /v1', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const res = await ask(stack.url, cookie, { ques: 'What meetups are on?', web: site.url, timezone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    await res.text();
    const id = Number(res.headers.get('x-search-id'));
    const whole = await searchWithEvents(stack.url, id, { cookie });
    const all = [...whole.events, ...whole.hidden_events];
    // Read whole, as the page reads it: every event kept, in the order found, nothing more to read.
    expect(all).toHaveLength(STORED_EVENTS_PER_SEARCH);
    expect(whole.events_has_more).toBe(false);
    expect(whole.events_cursor).toBe(String(STORED_EVENTS_PER_SEARCH - 1));
    expect(whole.events_left_out).toBeGreaterThanOrEqual(FOUND - STORED_EVENTS_PER_SEARCH);
    // The website's events kept are the nearest: the first ones of the page, none from its far end.
    const kept = all.map(numberOf).filter((n) => !Number.isNaN(n));
    expect(kept).toEqual(kept.map((_, i) => i));
    const [row] = await stack.db.sql<{ count: number }[]>`select count(*)::int as count from search_events where search_id = ${id}`;
    expect(row?.count).toBe(STORED_EVENTS_PER_SEARCH);

    // A page at a time, the cursor sent back, on /api and on /v1 alike.
    const made = await fetch(`${stack.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, origin: stack.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'reader', scopes: ['read'] }),
    });
    const { token } = createdApiTokenReplySchema.parse(await made.json());
    for (const [prefix, headers] of [
      ['/api', { cookie }],
      ['/v1', { authorization: `Bearer ${token}` }],
    ] as const) {
      const pages: SearchReply[] = [];
      let after: string | null = null;
      do {
        const query = `?events_limit=200${after === null ? '' : `&events_after=${after}`}`;
        const page = await fetch(`${stack.url}${prefix}/searches/${id}${query}`, { headers });
        expect(page.status, prefix).toBe(200);
        pages.push(searchReplySchema.parse(await page.json()));
        after = pages.at(-1)!.events_has_more ? pages.at(-1)!.events_cursor : null;
      } while (after !== null);
      expect(
        pages.map((p) => p.events.length + p.hidden_events.length),
        prefix,
      ).toEqual([200, 200, 100]);
      expect(
        pages.flatMap((p) => [...p.events, ...p.hidden_events]).map((e) => e.key),
        prefix,
      ).toEqual(all.map((e) => e.key));
      expect(
        pages.every((p) => p.events_left_out === whole.events_left_out && p.answer === whole.answer),
        prefix,
      ).toBe(true);
    }
  });

  it('answers a cursor or a page size it cannot read with 400 and a sentence', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const res = await ask(stack.url, cookie, { ques: 'AI meetups', web: '', timezone: 'Europe/Berlin' });
    await res.text();
    const id = res.headers.get('x-search-id');
    const bad = async (query: string) => {
      const reply = await fetch(`${stack.url}/api/searches/${id}${query}`, { headers: { cookie } });
      expect(reply.status, query).toBe(400);
      return ((await reply.json()) as { error: string }).error;
    };
    expect(await bad('?events_after=abc')).toBe(
      'events_after must be the events_cursor of an earlier reply for this search (a whole number), or left out to start with its first event.',
    );
    for (const limit of ['0', '501', 'ten'])
      expect(await bad(`?events_limit=${limit}`)).toBe('events_limit must be a whole number from 1 to 500, or left out for all of them.');
  });
});
