import { XMLParser } from 'fast-xml-parser';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimerRunReply } from '../core/contract/event-replies';
import { ask } from './support/ask';
import { searchWithEvents } from './support/search-events';
import { until } from '../dev/harness/wait';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { dailyTimer } from '../dev/harness/timer-input';
import { pageCalls } from './support/page-calls';

/**
 * Events as data end to end (docs/decisions/events-as-data.md): real Postgres, Redis, the worker and the stand-ins' sample sites.
 * The changing site (dev/standins/changing-site.ts) lists 3 events, then adds one, then moves one and
 * cancels another, one step per read.
 */
describe('events, only-new timers and feeds', () => {
  let stack: TestStack;
  let cookie: string;
  let otherCookie: string;
  beforeAll(async () => {
    // The worker starts later: "Run now" is first seen refusing a second run while the first is queued.
    stack = await startTestStack();
    ({ cookie } = await createSignedInUser(stack.db.sql));
    ({ cookie: otherCookie } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const site = (path: string) => `${stack.standins.url}/sites/${path}`;
  const { call, runs, runNow: endedRun } = pageCalls(() => ({ url: stack.url, cookie }));

  async function newTimer(web: string): Promise<number> {
    const res = await call('POST', '/api/schedule', dailyTimer({ time: '03:00', ques: 'AI events in Berlin', web }));
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: number }).id;
  }

  /** Run now, then wait for the worker to finish that run, which succeeds. */
  async function runNow(timerId: number): Promise<TimerRunReply> {
    const done = await endedRun(timerId);
    expect(done.status).toBe('succeeded');
    return done;
  }

  it('a search carries its events: X-Search-Id, then GET /api/searches/:id; seen again they are not new', async () => {
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: site('berlin-ai.html'), timezone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    const text = await res.text();
    const id = res.headers.get('x-search-id');
    expect(id).toMatch(/^\d+$/);
    const search = await searchWithEvents(stack.url, id, { cookie });
    expect(search.events_status).toBe('done');
    expect(search.answer).toBe(text);
    expect(search.website).toBe(site('berlin-ai.html'));
    expect(search.events.map((e) => [e.title, e.new])).toEqual([
      ['Applied ML Summit Berlin 2026', true],
      ['Berlin LLM Meetup #42: Retrieval that works', true],
      ['Hands-on: Fine-tuning open models (online)', true],
    ]);
    expect(search.events[0]).toMatchObject({
      key: 'url:https://ai-events.example/events/applied-ml-summit',
      starts_at: '2026-06-18T09:00:00+02:00',
      venue: 'bcc Berlin Congress Center',
      city: 'Berlin',
      source_url: site('berlin-ai.html'),
      status: 'scheduled',
    });

    const again = await ask(stack.url, cookie, { ques: 'AI events', web: site('berlin-ai.html'), timezone: 'Europe/Berlin' });
    await again.text();
    const second = await searchWithEvents(stack.url, again.headers.get('x-search-id'), { cookie });
    expect(second.events.map((e) => e.new)).toEqual([false, false, false]);

    expect((await call('GET', `/api/searches/${id}`, undefined, otherCookie)).status).toBe(404);
    expect((await call('GET', '/api/searches/nope')).status).toBe(404);
  });

  it('Run now refuses a second run while one is in flight, and runs through the worker', async () => {
    const timerId = await newTimer(site('berlin-ai.html'));
    const first = await call('POST', `/api/timers/${timerId}/run`);
    expect(first.status).toBe(202);
    // No worker yet: the run is queued, so it is certainly in flight.
    const second = await call('POST', `/api/timers/${timerId}/run`);
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: string }).error).toMatch(/already running/);
    expect((await call('POST', `/api/timers/${timerId}/run`, undefined, otherCookie)).status).toBe(404);

    await stack.startWorker();
    const { run_id } = (await first.json()) as { run_id: number };
    await until(
      'the queued run to succeed',
      async () => (await runs(timerId)).some((r) => r.id === run_id && r.status === 'succeeded'),
      30_000,
    );
    const [run] = await runs(timerId);
    expect(run).toMatchObject({ id: run_id, new_count: 3 });

    // Two runs over an unchanged site: the second finds nothing new.
    const rerun = await runNow(timerId);
    expect(rerun.new_count).toBe(0);
    expect(rerun.events.map((e) => e.new)).toEqual([false, false, false]);
    expect((await runs(timerId)).map((r) => r.id)).toEqual([rerun.id, run_id]);
  });

  it('a site that gains an event has exactly that one new; a moved and a cancelled one are changed, not new', async () => {
    const timerId = await newTimer(site(`changing/t${Date.now()}.html`));
    const first = await runNow(timerId);
    expect(first.new_count).toBe(3);

    const second = await runNow(timerId);
    expect(second.new_count).toBe(1);
    // New ones first within a run.
    expect(second.events[0]).toMatchObject({ title: 'Robotics Demo Day', new: true });
    expect(second.events.filter((e) => e.new).map((e) => e.title)).toEqual(['Robotics Demo Day']);

    const third = await runNow(timerId);
    expect(third.new_count).toBe(0);
    // A run of changes only says so: the moved and the cancelled one, by key.
    expect(third.changed_count).toBe(2);
    expect(third.changed_keys.map((k) => third.events.find((e) => e.key === k)?.title).sort()).toEqual([
      'Open Source AI Meetup',
      'Vector Databases Workshop',
    ]);
    expect(second.changed_count).toBe(0);
    const byTitle = new Map(third.events.map((e) => [e.title, e]));
    expect(byTitle.get('Open Source AI Meetup')).toMatchObject({ new: false, status: 'moved' });
    expect(byTitle.get('Vector Databases Workshop')).toMatchObject({ new: false, status: 'cancelled' });
    expect(byTitle.get('Data Engineering Night')).toMatchObject({ new: false, status: 'scheduled' });

    // The iCal feed: each event once, with its local start, the moved one re-sent with a higher SEQUENCE.
    const [timer] = ((await (await call('GET', '/api/timers')).json()) as { id: number; ical_url: string; atom_url: string }[]).filter(
      (t) => t.id === timerId,
    );
    const feed = await fetch(timer!.ical_url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
    const calendar = new ICAL.Component(ICAL.parse(await feed.text()));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Event Finder: AI events in Berlin');
    const vevents = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(vevents).toHaveLength(4);
    expect(new Set(vevents.map((v) => v.uid)).size).toBe(4);
    const moved = vevents.find((v) => v.summary === 'Open Source AI Meetup')!;
    const expectedStart = byTitle.get('Open Source AI Meetup')!.starts_at!;
    expect(moved.startDate.toJSDate().getTime()).toBe(Date.parse(expectedStart));
    // The site says 19:00 UTC; in the timer's zone (Berlin) that is 20:00 or 21:00 local time.
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(
      moved.startDate.toJSDate(),
    );
    expect(['20:00', '21:00']).toContain(local);
    expect(moved.sequence).toBe(1);
    const cancelled = vevents.find((v) => v.summary === 'Vector Databases Workshop')!;
    expect(cancelled.component.getFirstPropertyValue('status')).toBe('CANCELLED');

    // Polling with the ETag costs a 304 and no body.
    const etag = feed.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const poll = await fetch(timer!.ical_url, { headers: { 'if-none-match': etag } });
    expect(poll.status).toBe(304);
    expect(await poll.text()).toBe('');

    // Atom: one entry per run that found new or changed events.
    const atom = await fetch(timer!.atom_url);
    expect(atom.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(await atom.text());
    expect(doc.feed.entry.map((e: { title: string }) => e.title)).toEqual([
      // The latest run only changed events (one moved, one cancelled): it has its entry too.
      '2 changed events: Open Source AI Meetup, Vector Databases Workshop',
      '1 new event: Robotics Demo Day',
      '3 new events: Data Engineering Night, Open Source AI Meetup, Vector Databases Workshop',
    ]);
    // The feed links back to where the timer's runs and their answers are shown.
    const alternate = [doc.feed.link].flat().find((l: { '@_rel': string }) => l['@_rel'] === 'alternate');
    expect(alternate['@_href']).toBe(`${stack.url}/#timer-${timerId}`);

    // A new run changes the feed: the old ETag no longer matches.
    await runNow(timerId);
    expect((await fetch(timer!.ical_url, { headers: { 'if-none-match': etag } })).status).toBe(200);
  });

  it('a rotated feed token retires the old URLs', async () => {
    const timerId = await newTimer(site('berlin-ai.html'));
    const [before] = ((await (await call('GET', '/api/timers')).json()) as { id: number; ical_url: string; atom_url: string }[]).filter(
      (t) => t.id === timerId,
    );
    expect((await fetch(before!.ical_url)).status).toBe(200);
    expect((await call('POST', `/api/timers/${timerId}/feed-token`, undefined, otherCookie)).status).toBe(404);
    const res = await call('POST', `/api/timers/${timerId}/feed-token`);
    expect(res.status).toBe(200);
    const after = (await res.json()) as { ical_url: string; atom_url: string };
    expect(after.ical_url).not.toBe(before!.ical_url);
    expect((await fetch(before!.ical_url)).status).toBe(404);
    expect((await fetch(before!.atom_url)).status).toBe(404);
    expect((await fetch(after.ical_url)).status).toBe(200);
    expect((await fetch(after.atom_url)).status).toBe(200);
    expect((await fetch(`${stack.url}/feeds/not-a-token.ics`)).status).toBe(404);
    // Only a hash of the token is stored.
    const token = /\/feeds\/([\w-]+)\.ics$/.exec(after.ical_url)![1]!;
    const [row] = await stack.db.sql<{ feed_token_hash: string }[]>`select feed_token_hash from timers where id = ${timerId}`;
    expect(row!.feed_token_hash).not.toContain(token);
    expect(row!.feed_token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('structured extraction through the Gemini stand-in', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("a grounded search's events come from the model's structured reply, sources kept", async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const res = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '', timezone: 'Europe/Berlin' });
    await res.text();
    const search = await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie });
    expect(search.events_status).toBe('done');
    const request = stack.standins.gemini.lastRequest!;
    expect(request.method).toBe('generateContent');
    expect(request.body.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
    expect(request.body.tools).toBeUndefined();
    expect(request.prompt).toContain(stack.standins.gemini.state.lastAnswerRequest!.prompt);
    const summit = search.events.find((e) => e.title === 'AI Summit Berlin');
    const summitPage = `${stack.standins.url}/sites/grounded/ai-summit-berlin.html`;
    expect(summit).toMatchObject({ all_day: true, new: true });
    expect(summit!.key).toMatch(/^url:.*\/sites\/grounded\/ai-summit-berlin\.html$/);
    expect(summit!.starts_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Its own page, read and found to say the same.
    expect(summit!.source_url).toBe(summitPage);
    expect(summit!.verification).toMatchObject({ status: 'confirmed', source_url: summitPage });
  });

  it('a failed extraction keeps the website events, the search succeeds and its events say failed', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    // The answer streams; the one request after it (the extraction, made since the answer links beyond the
    // website's events) is refused.
    stack.standins.gemini.answerNext(
      'I found 3 events on the page.\nApplied ML Summit Berlin 2026\nAlso: https://elsewhere.example/party\n',
    );
    const res = await ask(stack.url, cookie, { ques: 'AI events', web: `${stack.standins.url}/sites/berlin-ai.html` });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    stack.standins.gemini.failNext({ when: 'before', status: 500 });
    while (!(await reader.read()).done) {}
    const search = await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie });
    expect(search.answer).toContain('I found 3 events');
    // The extraction failed: the search says so, and keeps the website's three events.
    expect(search.events_status).toBe('failed');
    expect(search.events).toHaveLength(3);
    const [rec] = await stack.db.sql<
      { status: string }[]
    >`select status from searches where id = ${Number(res.headers.get('x-search-id'))}`;
    expect(rec!.status).toBe('answered');
    // The injected failure was used up by the extraction: the next search answers normally.
    expect((await ask(stack.url, cookie, { ques: 'AI events', web: '' })).status).toBe(200);
  });
});
