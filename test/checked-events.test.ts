import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../core/contract/event';
import { listedTimerSchema } from '../core/contract/timers';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { groundedEvents } from '../dev/standins/grounded-answer';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';
import { pageCalls } from './support/page-calls';
import { searchWithEvents } from './support/search-events';

/**
 * The model's events checked against the pages they come from, through the real api and worker and the Gemini
 * stand-in's grounded answer (dev/standins/grounded-answer.ts): its grounding links redirect, like Google's, to
 * sample pages that carry the events in JSON-LD. Expected values are the stand-in's pages, written by hand there.
 */
describe('events checked against their source pages', () => {
  let stack: TestStack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startTestStack();
    ({ cookie } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });
  const { call, runNow } = pageCalls(() => ({ url: stack.url, cookie }));
  const page = (name: string) => `${stack.standins.url}/sites/grounded/${name}.html`;

  async function searched(ques: string): Promise<Event[]> {
    const res = await ask(stack.url, cookie, { ques, web: '', timezone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    await res.text();
    // An ask's events are found and checked after its reply has ended.
    return (await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie })).events;
  }
  const byTitle = (events: Event[], title: string) => {
    const found = events.find((e) => e.title === title);
    expect(found, title).toBeDefined();
    return found!;
  };

  it('confirms right dates from the cited pages, reached through the grounding redirect', async () => {
    stack.standins.gemini.state.siteReads.length = 0;
    const events = await searched('AI events in Berlin');
    // The summit by its own link; the meetup by the grounding chunk that supports it (a redirect to its page).
    expect(byTitle(events, 'AI Summit Berlin').verification).toEqual({
      status: 'confirmed',
      source_url: page('ai-summit-berlin'),
      model_starts_at: null,
      landing_url: null,
      reason: null,
    });
    const meetup = byTitle(events, 'Berlin Machine Learning Meetup');
    expect(meetup.verification).toEqual({
      status: 'confirmed',
      source_url: page('berlin-ml-meetup'),
      model_starts_at: null,
      landing_url: null,
      reason: null,
    });
    expect(meetup.source_url).toBe(page('berlin-ml-meetup'));
    // Each page once per search, however many links lead to it.
    const reads = stack.standins.gemini.state.siteReads;
    expect(reads.filter((p) => p === '/sites/grounded/berlin-ml-meetup.html')).toHaveLength(1);
    // The summit's own link and the grounding redirect to the same page: one fetch.
    expect(reads.filter((p) => p === '/sites/grounded/ai-summit-berlin.html')).toHaveLength(1);
  });

  it('corrects a wrong date from the page, keeping what the model said, and leaves an unlisted event unconfirmed', async () => {
    const right = byTitle(await searched('AI events in Berlin'), 'Berlin Machine Learning Meetup');
    const events = await searched('AI events in Berlin (wrong date)');
    const meetup = byTitle(events, 'Berlin Machine Learning Meetup');
    expect(meetup.verification?.status).toBe('corrected');
    expect(meetup.verification?.source_url).toBe(page('berlin-ml-meetup'));
    // The page's start and end, not the model's (a day and two hours later).
    expect(meetup.starts_at).toBe(right.starts_at);
    expect(meetup.ends_at).toBe(right.ends_at);
    expect(Date.parse(meetup.verification!.model_starts_at!) - Date.parse(right.starts_at!)).toBe(26 * 3_600_000);
    // Its identity comes from the corrected values: the same key as the right date's.
    expect(meetup.key).toBe(right.key);
    // The page does not list this one: never confirmed, however close its date.
    expect(byTitle(events, 'Berlin AI Film Night').verification).toEqual({
      status: 'unconfirmed',
      source_url: null,
      model_starts_at: null,
      landing_url: null,
      reason: 'not_listed',
    });
    // Nothing is ever confirmed with a start its page contradicts.
    for (const e of events) if (e.verification?.status === 'confirmed') expect(e.verification.model_starts_at).toBeNull();
  });

  it('does not fetch a page its robots.txt disallows: the events stay unconfirmed', async () => {
    stack.standins.gemini.state.siteReads.length = 0;
    const events = await searched('AI events in Berlin (robots)');
    expect(events.map((e) => [e.verification?.status, e.verification?.reason])).toEqual([
      ['unconfirmed', 'robots'],
      ['unconfirmed', 'robots'],
    ]);
    expect(stack.standins.gemini.state.siteReads.filter((p) => p.startsWith('/sites/no-robots/'))).toEqual([]);
  });

  it('refuses a grounding redirect to a private address through the website guard', async () => {
    const events = await searched('AI events in Berlin (private address)');
    expect(byTitle(events, 'AI Summit Berlin').verification?.status).toBe('confirmed');
    expect(byTitle(events, 'Berlin Machine Learning Meetup').verification?.status).toBe('unconfirmed');
  });

  it('a timer run checks its events before delivery; a corrected event is not new or moved on the next run', async () => {
    await stack.startWorker();
    const made = await call('POST', '/api/schedule', dailyTimer({ time: '03:00', ques: 'AI events in Berlin (wrong date)', web: '' }));
    const { id } = (await made.json()) as { id: number };
    const first = await runNow(id);
    expect(first.status).toBe('succeeded');
    expect(byTitle(first.events, 'Berlin Machine Learning Meetup').verification?.status).toBe('corrected');
    expect(first.new_count).toBe(3);
    const second = await runNow(id);
    expect(second.status).toBe('succeeded');
    expect(byTitle(second.events, 'Berlin Machine Learning Meetup').verification?.status).toBe('corrected');
    expect(second.new_count).toBe(0);
    expect(second.changed_count).toBe(0);
  });

  it('a timer set to checked events only leaves unconfirmed ones out of its runs and its feed', async () => {
    const made = await call('POST', '/api/schedule', dailyTimer({ time: '04:00', ques: 'AI events in Berlin (wrong date)', web: '' }));
    const { id } = (await made.json()) as { id: number };
    const patched = await call('PATCH', `/api/timers/${id}`, { checked_only: true });
    expect(patched.status).toBe(200);
    expect(listedTimerSchema.parse(await patched.json()).checked_only).toBe(true);
    const run = await runNow(id);
    expect(run.events.map((e) => [e.title, e.verification?.status]).sort()).toEqual([
      ['AI Summit Berlin', 'confirmed'],
      ['Berlin Machine Learning Meetup', 'corrected'],
    ]);
    const timers = (await (await call('GET', '/api/timers')).json()) as { id: number; ical_url: string }[];
    const ics = await (await fetch(timers.find((t) => t.id === id)!.ical_url)).text();
    expect(ics).toContain('Berlin Machine Learning Meetup');
    expect(ics).not.toContain('Berlin AI Film Night');
  });

  it('a meetup its page gives as a series is one event saying how it repeats, and the timer feed exports its RRULE', async () => {
    // The meetup's page states "every second Tuesday" as a schema.org eventSchedule beside its first date.
    const meetup = byTitle(await searched('AI events in Berlin'), 'Berlin Machine Learning Meetup');
    expect(meetup).toMatchObject({ repeats: 'every second Tuesday', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU' });
    expect(meetup.key.startsWith('series:')).toBe(true);

    if (!stack.worker) await stack.startWorker();
    const made = await call('POST', '/api/schedule', dailyTimer({ time: '05:00', ques: 'AI events in Berlin', web: '' }));
    const { id } = (await made.json()) as { id: number };
    const run = await runNow(id);
    expect(run.status).toBe('succeeded');
    const day = groundedEvents('').meetup.startsAt.slice(0, 10).replaceAll('-', '');
    const timers = (await (await call('GET', '/api/timers')).json()) as { id: number; ical_url: string; atom_url: string }[];
    const feeds = timers.find((t) => t.id === id)!;
    const ics = await (await fetch(feeds.ical_url)).text();
    const entries = ics.split('BEGIN:VEVENT').filter((v) => v.includes('SUMMARY:Berlin Machine Learning Meetup'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toContain(`DTSTART;TZID=Europe/Berlin:${day}T190000\r\n`);
    expect(entries[0]).toContain('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU\r\n');
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n');
    const atom = await (await fetch(feeds.atom_url)).text();
    expect(atom).toContain('repeats every second Tuesday');
  });
});
