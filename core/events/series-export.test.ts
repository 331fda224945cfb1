import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { deliveredEvent } from '../../dev/harness/found-event';
import type { Event } from '../contract/event';
import { vtimezoneLines } from '../time/vtimezone';
import { googleCalendarLink } from './calendar-link';
import { keyDigest } from './event-key';
import { timerAtom, timerCalendar } from './feeds';
import { singleEventIcs } from './ics';
import { oneCardPerSeries } from './series-card';

/*
 * A meetup every second Tuesday at 19:00 in Berlin, from 10 March 2026: its occurrences as stored (each its own
 * key), the third after the change to summer time (29 March), so its UTC time is an hour earlier.
 */
const SERIES = 'series:uid:ml-meetup@meetups.example';
const occurrence = (day: string, offset: string, over: Partial<Event> = {}): Event =>
  deliveredEvent({
    key: `${SERIES}@${day}T19:00:00`,
    title: 'Berlin Machine Learning Meetup',
    starts_at: `${day}T19:00:00${offset}`,
    ends_at: `${day}T21:00:00${offset}`,
    timezone: 'Europe/Berlin',
    venue: 'Factory Berlin',
    city: 'Berlin',
    online: false,
    url: null,
    source_url: 'https://meetups.example/ml.ics',
    repeats: 'every second Tuesday',
    rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
    ...over,
  });
const meetups = [occurrence('2026-03-10', '+01:00'), occurrence('2026-03-24', '+01:00'), occurrence('2026-04-07', '+02:00')];
const MARCH_1 = new Date('2026-03-01T12:00:00Z');

/** The start of each of a VEVENT's first `n` occurrences as UTC, read back by ical.js with the file's own VTIMEZONE. */
function occurrencesOf(text: string, n: number): string[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zone = calendar.getFirstSubcomponent('vtimezone');
  expect(zone).not.toBeNull();
  // Read with the file's zone alone: the zone ical.js knows is the one written.
  ICAL.TimezoneService.reset();
  ICAL.TimezoneService.register(zone!);
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
  const it = event.iterator();
  const out: string[] = [];
  for (let next = it.next(); next && out.length < n; next = it.next()) out.push(next.toJSDate().toISOString());
  ICAL.TimezoneService.reset();
  return out;
}

describe('a series its source gives as one rule', () => {
  it('is one card: its first occurrence not over, in the place of its first', () => {
    const talk = deliveredEvent({ key: 'url:https://x.example/talk', title: 'Talk', starts_at: '2026-03-05T18:00:00+01:00' });
    expect(oneCardPerSeries([meetups[0]!, talk, meetups[1]!, meetups[2]!], MARCH_1).map((e) => e.key)).toEqual([meetups[0]!.key, talk.key]);
    // Once the first is over, the next stands for the series; when all are over, the last.
    expect(oneCardPerSeries(meetups, new Date('2026-03-11T00:00:00Z')).map((e) => e.starts_at)).toEqual(['2026-03-24T19:00:00+01:00']);
    expect(oneCardPerSeries(meetups, new Date('2026-05-01T00:00:00Z')).map((e) => e.starts_at)).toEqual(['2026-04-07T19:00:00+02:00']);
    // Occurrences without an exportable rule stay each its own card.
    const plain = meetups.map((e) => ({ ...e, rrule: null }));
    expect(oneCardPerSeries(plain, MARCH_1)).toHaveLength(3);
  });

  it('exports as one .ics entry with its RRULE on its own clock, each occurrence at 19:00 Berlin time across the DST change', () => {
    const text = singleEventIcs(meetups[0]!, 'events.test', MARCH_1)!;
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:20260310T190000\r\n');
    expect(text).toContain('DTEND;TZID=Europe/Berlin:20260310T210000\r\n');
    expect(text).toContain('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU\r\n');
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n');
    expect(text).toContain(`UID:${keyDigest(SERIES)}@events.test`);
    expect(text).toContain('DESCRIPTION:Repeats every second Tuesday.');
    expect(occurrencesOf(text, 4)).toEqual([
      '2026-03-10T18:00:00.000Z',
      '2026-03-24T18:00:00.000Z',
      '2026-04-07T17:00:00.000Z',
      '2026-04-21T17:00:00.000Z',
    ]);
  });

  it('a series whose zone is not known, and a one-off, are written in UTC without a rule', () => {
    const unzoned = singleEventIcs({ ...meetups[0]!, timezone: null }, 'events.test', MARCH_1)!;
    expect(unzoned).toContain('DTSTART:20260310T180000Z\r\n');
    expect(unzoned).not.toContain('RRULE');
    expect(unzoned).not.toContain('VTIMEZONE');
    const once = singleEventIcs({ ...meetups[0]!, rrule: null }, 'events.test', MARCH_1)!;
    expect(once).not.toContain('RRULE');
    expect(once).toContain(`UID:${keyDigest(meetups[0]!.key)}@events.test`);
  });

  it("is one entry with its RRULE in a timer's calendar feed, and its Atom entry says how it repeats", () => {
    const timer = { id: 7, question: 'ML meetups in Berlin', website: '', timezone: 'Europe/Berlin' };
    const stored = meetups.map((event) => ({ event, sequence: 0, changedAt: MARCH_1 }));
    // From its earliest occurrence in the feed's window, whatever is over: a calendar keeps showing those.
    const ics = timerCalendar(timer, [...stored].reverse(), { uidDomain: 'events.test', runsUrl: 'https://app.test/#timer-7' });
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(ics.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1);
    expect(ics).toContain('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU\r\n');
    expect(occurrencesOf(ics, 3)).toEqual(['2026-03-10T18:00:00.000Z', '2026-03-24T18:00:00.000Z', '2026-04-07T17:00:00.000Z']);

    const atom = timerAtom(
      timer,
      [{ runId: 1, finishedAt: MARCH_1, events: meetups }],
      { selfUrl: 'https://app.test/feed.atom', idAuthority: 'app.test', runsUrl: 'https://app.test/#timer-7' },
      MARCH_1,
    );
    expect(atom).toContain('<title>1 new event: Berlin Machine Learning Meetup</title>');
    expect(atom).toContain(
      'Berlin Machine Learning Meetup · Tue 10 Mar 2026, 19:00 (Europe/Berlin) · repeats every second Tuesday · Factory Berlin',
    );
  });

  it('repeats in the Google Calendar link too, on the event’s clock', () => {
    const link = new URL(googleCalendarLink(meetups[0]!)!);
    expect(link.searchParams.get('recur')).toBe('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU');
    expect(link.searchParams.get('ctz')).toBe('Europe/Berlin');
  });
});

describe('a VTIMEZONE written from Intl', () => {
  it("gives each change of a zone's offset in the span as its onset in local time", () => {
    expect(vtimezoneLines('Europe/Berlin', Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-12-31T00:00:00Z'))).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'BEGIN:STANDARD',
      'DTSTART:20260101T010000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0100',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:20260329T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:20261025T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
  });

  it('a zone without changes is one observance; a southern zone and a half-hour offset are written as they are', () => {
    expect(vtimezoneLines('Asia/Tokyo', Date.parse('2026-01-01T00:00:00Z'), Date.parse('2030-01-01T00:00:00Z'))).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:Asia/Tokyo',
      'BEGIN:STANDARD',
      'DTSTART:20260101T090000',
      'TZOFFSETFROM:+0900',
      'TZOFFSETTO:+0900',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
    // Adelaide: +10:30 in January, back to +09:30 on the first Sunday of April at 03:00 local.
    const adelaide = vtimezoneLines('Australia/Adelaide', Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-06-01T00:00:00Z'));
    expect(adelaide.slice(2, 12)).toEqual([
      'BEGIN:DAYLIGHT',
      'DTSTART:20260101T103000',
      'TZOFFSETFROM:+1030',
      'TZOFFSETTO:+1030',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:20260405T030000',
      'TZOFFSETFROM:+1030',
      'TZOFFSETTO:+0930',
      'END:STANDARD',
    ]);
  });
});
