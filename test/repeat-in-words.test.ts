import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleEventIcs } from '../core/events/ics';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';
import { pageCalls } from './support/page-calls';
import { searchWithEvents } from './support/search-events';

/**
 * A meetup whose page says only in words how it repeats ("…, then every second Tuesday"), through the real api,
 * worker and the Gemini stand-in (dev/standins/repeat-in-words.ts): the extraction states the repeat in its closed
 * form, our code makes the rule, and the meetup is one card that repeats and exports its RRULE.
 */
describe('a repeat stated in words', () => {
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
  const site = () => `${stack.standins.url}/sites/rust-meetup.html`;

  // The page's first meetup, by hand: the first Tuesday at least seven days after today in Berlin, 19:00 there.
  const firstMeetup = () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
    let day = Date.parse(`${today}T00:00:00Z`) + 7 * 86_400_000;
    while (new Date(day).getUTCDay() !== 2) day += 86_400_000;
    return new Date(day).toISOString().slice(0, 10);
  };

  it('is one event that says how it repeats, and its .ics and the timer feed carry the RRULE', async () => {
    const res = await ask(stack.url, cookie, { ques: 'Rust meetups', web: site(), timezone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('and then every second Tuesday');

    const { events } = await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie });
    // The events are extracted after the reply, asking for the closed form; no raw rule.
    const extraction = stack.standins.gemini.state.recentRequests.find(
      (r) => r.body.generationConfig?.responseMimeType === 'application/json',
    );
    expect(JSON.stringify(extraction?.body.generationConfig?.responseJsonSchema)).toContain('"week_of_month"');
    expect(events).toHaveLength(1);
    const day = firstMeetup();
    const meetup = events[0]!;
    expect(meetup).toMatchObject({
      title: 'Rust Meetup Berlin',
      starts_at: expect.stringMatching(new RegExp(`^${day}T19:00:00\\+0[12]:00$`)),
      timezone: 'Europe/Berlin',
      repeats: 'every second Tuesday',
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
    });
    expect(meetup.key.startsWith('series:')).toBe(true);

    // The card's .ics download, as the page makes it.
    const ics = singleEventIcs(meetup, 'test.invalid')!;
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(ics).toContain(`DTSTART;TZID=Europe/Berlin:${day.replaceAll('-', '')}T190000\r\n`);
    expect(ics).toContain('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU\r\n');
    expect(ics).toContain('BEGIN:VTIMEZONE');

    // A timer on the page (its one call gives the answer with its events) exports the series in its feed.
    await stack.startWorker();
    const made = await call('POST', '/api/schedule', dailyTimer({ time: '05:00', ques: 'Rust meetups', web: site() }));
    const { id } = (await made.json()) as { id: number };
    const run = await runNow(id);
    expect(run.status).toBe('succeeded');
    expect(run.events.map((e) => [e.title, e.repeats, e.rrule])).toEqual([
      ['Rust Meetup Berlin', 'every second Tuesday', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU'],
    ]);
    const timers = (await (await call('GET', '/api/timers')).json()) as { id: number; ical_url: string }[];
    const feed = await (await fetch(timers.find((t) => t.id === id)!.ical_url)).text();
    const entries = feed.split('BEGIN:VEVENT').filter((v) => v.includes('SUMMARY:Rust Meetup Berlin'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toContain(`DTSTART;TZID=Europe/Berlin:${day.replaceAll('-', '')}T190000\r\n`);
    expect(entries[0]).toContain('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU\r\n');
  });
});
