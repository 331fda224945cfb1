import { XMLParser } from 'fast-xml-parser';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { deliveredEvent } from '../../dev/harness/found-event';
import type { Event } from '../contract/event';
import { googleCalendarLink } from './calendar-link';
import { keyDigest } from './event-key';
import { timerAtom, timerCalendar } from './feeds';
import { escapeText, foldLine, icsFileName, singleEventIcs } from './ics';

const event = (over: Partial<Event> = {}): Event =>
  deliveredEvent({
    key: 'url:https://ai-events.example/events/applied-ml-summit',
    title: 'Applied ML Summit; Berlin, 2026 \\ day one',
    starts_at: '2026-06-18T09:00:00+02:00',
    ends_at: '2026-06-19T18:00:00+02:00',
    timezone: 'Europe/Berlin',
    venue: 'bcc Berlin Congress Center',
    city: 'Berlin',
    online: false,
    url: 'https://ai-events.example/events/applied-ml-summit',
    source_url: 'https://ai-events.example/berlin',
    ...over,
  });

const parse = (text: string) => new ICAL.Component(ICAL.parse(text));

describe('Add to calendar', () => {
  it('links to Google Calendar with UTC times, or dates for an all-day event', () => {
    const link = new URL(googleCalendarLink(event())!);
    expect(link.origin + link.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(link.searchParams.get('action')).toBe('TEMPLATE');
    expect(link.searchParams.get('dates')).toBe('20260618T070000Z/20260619T160000Z');
    expect(link.searchParams.get('ctz')).toBe('Europe/Berlin');
    expect(link.searchParams.get('location')).toBe('bcc Berlin Congress Center');
    const allDay = new URL(googleCalendarLink(event({ starts_at: '2026-07-01', ends_at: '2026-07-02', all_day: true }))!);
    expect(allDay.searchParams.get('dates')).toBe('20260701/20260703');
    expect(googleCalendarLink(event({ starts_at: null }))).toBeNull();
  });

  it('writes a single-event .ics that ical.js reads back exactly', () => {
    const text = singleEventIcs(event(), 'events.test', new Date('2026-05-01T10:00:00Z'))!;
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(text.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);
    const vevent = parse(text).getFirstSubcomponent('vevent')!;
    const e = new ICAL.Event(vevent);
    expect(e.uid).toBe(`${keyDigest(event().key)}@events.test`);
    expect(e.summary).toBe('Applied ML Summit; Berlin, 2026 \\ day one');
    expect(e.startDate.toJSDate().toISOString()).toBe('2026-06-18T07:00:00.000Z');
    expect(e.endDate.toJSDate().toISOString()).toBe('2026-06-19T16:00:00.000Z');
    expect(e.location).toBe('bcc Berlin Congress Center');
    expect(vevent.getFirstPropertyValue('dtstamp')!.toString()).toBe('2026-05-01T10:00:00Z');
  });

  it('writes all-day events as DATE values with an exclusive end', () => {
    const text = singleEventIcs(event({ starts_at: '2026-07-01', ends_at: '2026-07-02', all_day: true }), 'x.test')!;
    expect(text).toContain('DTSTART;VALUE=DATE:20260701\r\n');
    expect(text).toContain('DTEND;VALUE=DATE:20260703\r\n');
    const e = new ICAL.Event(parse(text).getFirstSubcomponent('vevent')!);
    expect(e.startDate.isDate).toBe(true);
    expect(e.startDate.toString()).toBe('2026-07-01');
  });

  it('escapes text and folds long lines at 75 octets without splitting characters', () => {
    expect(escapeText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
    const long = `SUMMARY:${'Ünïcødé '.repeat(20)}`;
    const folded = foldLine(long);
    for (const line of folded.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(long);
    expect(icsFileName(event())).toBe('Applied-ML-Summit-Berlin-2026-day-one.ics');
  });
});

describe('.ics output of untrusted values', () => {
  it('carries no control characters and no link that is not http(s); TENTATIVE stays TENTATIVE', () => {
    const ics = singleEventIcs(
      event({
        title: 'Bad\u0000 title\u0007\r\nBEGIN:VALARM\u202e',
        venue: 'Hall\u001b[31m',
        url: 'javascript:alert(1)',
        source_url: 'https://ai-events.example/berlin',
        status: 'tentative',
      }),
      'test',
    )!;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for them
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(ics).not.toContain('javascript:');
    const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('summary')).toBe('Bad title\nBEGIN:VALARM');
    expect(vevent.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expect(vevent.getAllSubcomponents('valarm')).toHaveLength(0);
  });
});

describe('timer feeds', () => {
  const timer = { id: 7, question: 'AI meetups in Berlin', website: 'https://ai-events.example/berlin' };

  it('the iCal feed has one VEVENT per key with its sequence, name and refresh interval', () => {
    const changedAt = new Date('2026-05-02T08:00:00Z');
    const { new: _, ...found } = event();
    const text = timerCalendar(
      timer,
      [
        { event: found, sequence: 2, changedAt },
        {
          event: {
            ...found,
            key: 'event:x|2026-06-01|',
            title: 'X',
            starts_at: '2026-06-01',
            ends_at: null,
            all_day: true,
            status: 'cancelled',
          },
          sequence: 0,
          changedAt,
        },
        { event: { ...found, key: 'event:nodate||', starts_at: null }, sequence: 0, changedAt },
      ],
      { uidDomain: 'events.test', runsUrl: 'http://127.0.0.1:1/#timer-7' },
    );
    const cal = parse(text);
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe('Event Finder: AI meetups in Berlin');
    // Back to where the timer's runs and their answers are shown (RFC 7986 URL).
    expect(cal.getFirstPropertyValue('url')).toBe('http://127.0.0.1:1/#timer-7');
    expect(cal.getFirstProperty('refresh-interval')!.getFirstValue()!.toString()).toBe('PT1H');
    const vevents = cal.getAllSubcomponents('vevent');
    expect(vevents).toHaveLength(2);
    expect(vevents[0]!.getFirstPropertyValue('sequence')).toBe(2);
    expect(vevents[1]!.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('the Atom feed has one entry per run with new events, each linking to the timer’s runs', () => {
    const text = timerAtom(
      timer,
      [
        { runId: 12, finishedAt: new Date('2026-05-02T08:00:00Z'), events: [event({ title: 'Talk <b>&</b> pizza' })] },
        { runId: 9, finishedAt: new Date('2026-05-01T08:00:00Z'), events: [event(), event({ title: 'Second' })] },
      ],
      {
        selfUrl: 'http://127.0.0.1:1/feeds/t.atom',
        idAuthority: '127.0.0.1',
        runsUrl: 'http://127.0.0.1:1/#timer-7',
      },
    );
    const doc = new XMLParser({ ignoreAttributes: false }).parse(text);
    expect(doc.feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    // The feed's page is where the timer's runs and their answers are shown.
    const links = [doc.feed.link].flat().map((l: { '@_rel': string; '@_href': string }) => [l['@_rel'], l['@_href']]);
    expect(links).toContainEqual(['alternate', 'http://127.0.0.1:1/#timer-7']);
    expect(doc.feed.updated).toBe('2026-05-02T08:00:00.000Z');
    expect(doc.feed.entry).toHaveLength(2);
    expect(doc.feed.entry[0].title).toBe('1 new event: Talk <b>&</b> pizza');
    expect(doc.feed.entry[1].id).toBe('tag:127.0.0.1,2026:timer-7:run-9');
    expect(doc.feed.entry[1].title).toMatch(/^2 new events: /);
    // A reader's "open" lands on this timer's runs in Manage Timers, not on the bare home page.
    for (const entry of doc.feed.entry) expect(entry.link['@_href']).toBe('http://127.0.0.1:1/#timer-7');
    expect(doc.feed.link.find((l: { '@_rel': string }) => l['@_rel'] === 'alternate')['@_href']).toBe('http://127.0.0.1:1/#timer-7');
  });
});

describe("an entry's words", () => {
  it("says what the answer said of a corrected start in the one date style, in the event's zone and naming it", () => {
    const corrected = event({
      verification: { status: 'corrected', source_url: 'https://www.meetup.example/ml', model_starts_at: '2026-06-17T19:00:00Z' },
    });
    const vevent = parse(singleEventIcs(corrected, 'events.example') ?? '').getFirstSubcomponent('vevent')!;
    expect(String(vevent.getFirstPropertyValue('description')).split('\n')[0]).toBe(
      'Corrected from meetup.example (the answer said Wed 17 Jun 2026, 21:00 (Europe/Berlin))',
    );
  });
});

describe('a moved event', () => {
  const moved = event({ status: 'moved', new: false, moved_from: '2026-06-11T09:00:00+02:00' });

  it('says its old and new date in its calendar entry, in its zone', () => {
    const vevent = parse(singleEventIcs(moved, 'events.example') ?? '').getFirstSubcomponent('vevent')!;
    expect(String(vevent.getFirstPropertyValue('description')).split('\n')[0]).toBe(
      'Moved: Thu 11 Jun 2026, 09:00 → Thu 18 Jun 2026, 09:00 – Fri 19 Jun 2026, 18:00 (Europe/Berlin).',
    );
    const unknown = parse(singleEventIcs({ ...moved, moved_from: null }, 'events.example') ?? '').getFirstSubcomponent('vevent')!;
    expect(String(unknown.getFirstPropertyValue('description')).split('\n')[0]).toBe('This event was moved.');
  });

  it('says its old and new date in the Atom entry, in the timer zone', () => {
    const text = timerAtom(
      { id: 7, question: 'AI', website: '', timezone: 'Europe/Berlin' },
      [{ runId: 3, finishedAt: new Date('2026-06-02T08:00:00Z'), events: [moved] }],
      { selfUrl: 'https://events.example/feeds/t.atom', idAuthority: 'events.example', runsUrl: 'https://events.example/#timer-7' },
    );
    expect(text).toContain(
      'Moved: Applied ML Summit; Berlin, 2026 \\ day one · Thu 11 Jun 2026, 09:00 → Thu 18 Jun 2026, 09:00 – Fri 19 Jun 2026, 18:00 (Europe/Berlin) · bcc Berlin Congress Center',
    );
  });
});

describe('calendar entries without a known end', () => {
  it('a timed event with no end is written with its start only: no hour nobody announced', () => {
    const vevent = parse(singleEventIcs(event({ ends_at: null }), 'events.example') ?? '').getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('dtstart')?.toString()).toBe('2026-06-18T07:00:00Z');
    expect(vevent.hasProperty('dtend')).toBe(false);
    expect(vevent.hasProperty('duration')).toBe(false);
    // ical.js reads it as RFC 5545 says: it ends when it starts.
    const e = new ICAL.Event(vevent);
    expect(e.endDate.toUnixTime()).toBe(e.startDate.toUnixTime());
  });

  it('an all-day event with no end is its one day; with an end, the end is kept', () => {
    const oneDay = parse(singleEventIcs(event({ starts_at: '2026-07-01', ends_at: null, all_day: true }), 'events.example') ?? '');
    const v = oneDay.getFirstSubcomponent('vevent')!;
    expect(v.hasProperty('dtend')).toBe(false);
    expect(new ICAL.Event(v).endDate.toString()).toBe('2026-07-02');
    const withEnd = parse(singleEventIcs(event(), 'events.example') ?? '').getFirstSubcomponent('vevent')!;
    expect(withEnd.getFirstPropertyValue('dtend')?.toString()).toBe('2026-06-19T16:00:00Z');
  });
});

describe('the Atom feed, times and changes', () => {
  const timer = { id: 7, question: 'AI meetups', website: '', timezone: 'America/New_York' };
  const entryHtml = (text: string, i = 0) => {
    const doc = new XMLParser().parse(text);
    return { title: [doc.feed.entry].flat()[i].title as string, content: [doc.feed.entry].flat()[i].content as string };
  };

  it("writes an event's time in the timer's zone and names it, as the timer's webhook does", () => {
    const text = timerAtom(timer, [{ runId: 1, finishedAt: new Date('2026-06-01T08:00:00Z'), events: [event()] }], {
      selfUrl: 'https://events.example/feeds/t.atom',
      idAuthority: 'events.example',
      runsUrl: 'https://events.example/#timer-7',
    });
    // 09:00 in Berlin (UTC+2) is 03:00 in New York (UTC-4); it ends the next day, 18:00 in Berlin.
    expect(entryHtml(text).content).toContain('Thu 18 Jun 2026, 03:00 – Fri 19 Jun 2026, 12:00 (America/New York)');
  });

  it('includes a run whose events only changed, and says which changed', () => {
    const text = timerAtom(
      timer,
      [
        {
          runId: 2,
          finishedAt: new Date('2026-06-02T08:00:00Z'),
          events: [event({ new: false, status: 'moved' }), event({ new: false, status: 'cancelled', title: 'Gone' })],
        },
      ],
      { selfUrl: 'https://events.example/feeds/t.atom', idAuthority: 'events.example', runsUrl: 'https://events.example/#timer-7' },
    );
    const entry = entryHtml(text);
    expect(entry.title).toMatch(/^2 changed events: /);
    expect(entry.content).toContain('Moved: Applied ML Summit');
    expect(entry.content).toContain('Cancelled: Gone');
  });
});
