import { describe, expect, it } from 'vitest';
import type { EventFact } from '../website/event-fact';
import { eventsFromFacts } from './from-facts';

const now = new Date('2026-05-01T12:00:00Z');
const page = 'https://meetup.example/group';
const read = (events: EventFact[], searcherTimezone = 'UTC', onDropped?: (what: string, n: number) => void) =>
  eventsFromFacts({ url: page, events, text: '' }, { searcherTimezone, now, onDropped });

// A weekly meetup as an iCalendar export states it: DTSTART;TZID=Europe/Berlin:20260106T190000, DURATION:PT2H.
const weekly: EventFact = {
  name: 'Berlin JS meetup',
  startAt: '2026-01-06T19:00:00',
  endAt: '2026-01-06T21:00:00',
  timezone: 'Europe/Berlin',
  uid: 'weekly-js@meetup.example',
  recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU', rdates: [], exdates: ['2026-05-12T19:00:00'] },
};

describe('recurring series', () => {
  it('yields each occurrence in the window, at its wall time in the event’s zone across DST, with its duration', () => {
    const events = read([weekly]);
    // 30 days back (1 Apr, 12:00 UTC) to 12 months ahead (1 May 2027): Tuesdays 7 Apr 2026 to 27 Apr 2027, 56.
    expect(events).toHaveLength(56);
    expect(events[0]).toMatchObject({ starts_at: '2026-04-07T19:00:00+02:00', ends_at: '2026-04-07T21:00:00+02:00' });
    expect(events.find((e) => e.starts_at?.startsWith('2026-11-03'))).toMatchObject({
      starts_at: '2026-11-03T19:00:00+01:00',
      ends_at: '2026-11-03T21:00:00+01:00',
      timezone: 'Europe/Berlin',
      timezone_source: 'source',
    });
    expect(events.at(-1)?.starts_at).toBe('2027-04-27T19:00:00+02:00');
    expect(new Set(events.map((e) => e.key)).size).toBe(56);
    expect(events[0]?.key).toBe('series:uid:weekly-js@meetup.example@2026-04-07T19:00');
  });

  it('is its latest occurrence when it has none in the window, as a past one-off is kept (docs/decisions/events-as-data.md)', () => {
    // A choir's weekly rehearsals that ended in 2024 (UNTIL in UTC), beside a one-off concert of 2024: both are
    // past events of the calendar, each listed once, at their last date.
    const rehearsals: EventFact = {
      name: 'Choir rehearsal',
      startAt: '2024-01-09T19:00:00',
      endAt: '2024-01-09T21:00:00',
      timezone: 'Europe/Berlin',
      uid: 'choir@example',
      recurrence: { rrule: 'FREQ=WEEKLY;UNTIL=20240604T170000Z', rdates: [], exdates: ['2024-06-04T19:00:00'] },
    };
    const concert: EventFact = { name: 'Summer concert', startAt: '2024-06-15T19:00:00', timezone: 'Europe/Berlin' };
    const events = read([rehearsals, concert]);
    // The last Tuesday, 4 June, is excluded: 28 May is the last rehearsal held.
    expect(events.map((e) => [e.title, e.starts_at, e.status])).toEqual([
      ['Choir rehearsal', '2024-05-28T19:00:00+02:00', 'scheduled'],
      ['Summer concert', '2024-06-15T19:00:00+02:00', 'scheduled'],
    ]);
    expect(events[0]?.key).toBe('series:uid:choir@example@2024-05-28T19:00');
    // COUNT ends a series as UNTIL does.
    const counted = read([{ ...rehearsals, recurrence: { rrule: 'FREQ=DAILY;COUNT=3', rdates: [], exdates: [] } }]);
    expect(counted.map((e) => e.starts_at)).toEqual(['2024-01-11T19:00:00+01:00']);
  });

  it('turns an EXDATE in the window into a cancelled occurrence, and places overrides on their occurrence', () => {
    const events = read([
      weekly,
      // RECURRENCE-ID;TZID=Europe/Berlin:20260519T190000 moved to Wednesday, and 26 May cancelled.
      {
        name: 'Berlin JS meetup (Wednesday!)',
        uid: weekly.uid,
        recurrenceId: '2026-05-19T19:00:00',
        startAt: '2026-05-20T19:00:00',
        endAt: '2026-05-20T21:00:00',
        timezone: 'Europe/Berlin',
      },
      {
        name: 'Berlin JS meetup',
        uid: weekly.uid,
        recurrenceId: '2026-05-26T19:00:00',
        startAt: '2026-05-26T19:00:00',
        timezone: 'Europe/Berlin',
        status: 'cancelled',
      },
      // Moved by an hour, with no end of its own: it keeps the series' two hours.
      {
        name: 'Berlin JS meetup',
        uid: weekly.uid,
        recurrenceId: '2026-06-02T19:00:00',
        startAt: '2026-06-02T20:00:00',
        timezone: 'Europe/Berlin',
      },
    ]);
    expect(events).toHaveLength(56);
    const byKey = new Map(events.map((e) => [e.key, e]));
    const k = (at: string) => `series:uid:weekly-js@meetup.example@${at}`;
    expect(byKey.get(k('2026-05-12T19:00'))).toMatchObject({ status: 'cancelled', starts_at: '2026-05-12T19:00:00+02:00' });
    expect(byKey.get(k('2026-05-19T19:00'))).toMatchObject({
      status: 'moved',
      title: 'Berlin JS meetup (Wednesday!)',
      starts_at: '2026-05-20T19:00:00+02:00',
      ends_at: '2026-05-20T21:00:00+02:00',
    });
    expect(byKey.get(k('2026-05-26T19:00'))).toMatchObject({ status: 'cancelled' });
    expect(byKey.get(k('2026-06-02T19:00'))).toMatchObject({
      status: 'moved',
      starts_at: '2026-06-02T20:00:00+02:00',
      ends_at: '2026-06-02T22:00:00+02:00',
    });
    expect(byKey.get(k('2026-06-09T19:00'))).toMatchObject({ status: 'scheduled' });
  });

  it('stops at 100 occurrences per series and says how many it left out, also for a rule started decades ago', () => {
    const dropped: [string, number][] = [];
    const started = performance.now();
    const events = read(
      [
        {
          name: 'Daily standup',
          startAt: '2001-01-01T09:00:00',
          timezone: 'Europe/London',
          recurrence: { rrule: 'FREQ=DAILY', rdates: [], exdates: [] },
        },
      ],
      'UTC',
      (what, n) => dropped.push([what, n]),
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(events).toHaveLength(100);
    // 1 Apr 09:00 BST is before the window's start (1 Apr, 12:00 UTC); 2 Apr 2026 to 1 May 2027 is 395 days.
    expect(events[0]?.starts_at).toBe('2026-04-02T09:00:00+01:00');
    expect(dropped).toEqual([[expect.stringMatching(/occurrences/), 295]]);
  });

  it('expands RDATEs and all-day series with their length in days, read in the venue’s zone', () => {
    const events = read([
      {
        name: 'Harvest market',
        startAt: '2026-04-04',
        endAt: '2026-04-05',
        city: 'Vienna',
        country: 'Austria',
        recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=1SA;COUNT=3', rdates: ['2026-12-19'], exdates: [] },
      },
    ]);
    expect(events.map((e) => [e.starts_at, e.ends_at, e.all_day])).toEqual([
      ['2026-04-04', '2026-04-05', true],
      ['2026-05-02', '2026-05-03', true],
      ['2026-06-06', '2026-06-07', true],
      ['2026-12-19', '2026-12-20', true],
    ]);
    expect(events[0]).toMatchObject({
      timezone: 'Europe/Vienna',
      timezone_source: 'venue',
      key: 'series:event:harvest market|vienna@2026-04-04',
    });
  });

  it('counts the DTSTART as the first occurrence even on a day the rule does not yield (RFC 5545 3.3.10)', () => {
    // node-ical's Office-2012-owa.ics: DTSTART on Monday 2 Nov 2020, RRULE:FREQ=WEEKLY;…;BYDAY=TH,FR.
    const events = eventsFromFacts(
      {
        url: page,
        text: '',
        events: [
          {
            name: 'TEST2',
            startAt: '2020-11-02T13:30:00',
            endAt: '2020-11-02T15:00:00',
            timezone: 'America/New_York',
            recurrence: { rrule: 'FREQ=WEEKLY;UNTIL=20210828T140000Z;INTERVAL=1;BYDAY=TH,FR;WKST=SU', rdates: [], exdates: [] },
          },
        ],
      },
      { searcherTimezone: 'UTC', now: new Date('2020-10-20T12:00:00Z') },
    );
    expect(events.slice(0, 3).map((e) => e.starts_at)).toEqual([
      '2020-11-02T13:30:00-05:00',
      '2020-11-05T13:30:00-05:00',
      '2020-11-06T13:30:00-05:00',
    ]);
    expect(events).toHaveLength(87);
  });

  it('counts that DTSTART in the COUNT too', () => {
    const events = read([
      {
        name: 'Course',
        startAt: '2026-05-04T10:00:00',
        timezone: 'Europe/Berlin',
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TH;COUNT=3', rdates: [], exdates: [] },
      },
    ]);
    expect(events.map((e) => e.starts_at)).toEqual(['2026-05-04T10:00:00+02:00', '2026-05-07T10:00:00+02:00', '2026-05-14T10:00:00+02:00']);
  });

  it('includes the whole day a date UNTIL names on a timed series', () => {
    // Google (jazzband/icalevents rrule_until_only_date.ics): UNTIL=20211020 where DTSTART is 13:00 Boise.
    const events = read([
      {
        name: 'LUNCH',
        startAt: '2026-05-04T13:00:00',
        timezone: 'America/Boise',
        recurrence: { rrule: 'FREQ=WEEKLY;WKST=SU;UNTIL=20260513;BYDAY=MO,WE', rdates: [], exdates: [] },
      },
    ]);
    expect(events.map((e) => e.starts_at)).toEqual([
      '2026-05-04T13:00:00-06:00',
      '2026-05-06T13:00:00-06:00',
      '2026-05-11T13:00:00-06:00',
      '2026-05-13T13:00:00-06:00',
    ]);
  });

  it('ends an all-day series on the day whose local midnight its UTC UNTIL is', () => {
    // Exchange (jazzband/icalevents recurrenceid_ms.ics): UNTIL=20210701T220000Z is midnight of Friday 2 July in
    // Berlin, the last occurrence; searchers anywhere get the same days.
    for (const searcher of ['Europe/Berlin', 'America/Los_Angeles', 'Pacific/Auckland']) {
      const events = read(
        [
          {
            name: 'Away',
            startAt: '2026-05-06',
            recurrence: { rrule: 'FREQ=WEEKLY;UNTIL=20260514T220000Z;BYDAY=WE,FR;WKST=SU', rdates: [], exdates: [] },
          },
        ],
        searcher,
      );
      expect(events.map((e) => e.starts_at)).toEqual(['2026-05-06', '2026-05-08', '2026-05-13', '2026-05-15']);
    }
  });

  it('yields all COUNT occurrences of a monthly rule limited to some months, starting after the first month listed', () => {
    // collective/icalendar's period_with_timezone.ics: ical.js finds its second time twice when BYMONTH's first
    // month is before DTSTART's, and counts both, so its own COUNT stopped one short.
    const events = read([
      {
        name: 'Test RDATE',
        startAt: '2026-09-16T12:00:00',
        timezone: 'America/Vancouver',
        recurrence: { rrule: 'FREQ=MONTHLY;COUNT=6;BYDAY=+3WE;BYMONTH=1,2,3,9,10,11,12', rdates: [], exdates: [] },
      },
    ]);
    expect(events.map((e) => e.starts_at?.slice(0, 10))).toEqual([
      '2026-09-16',
      '2026-10-21',
      '2026-11-18',
      '2026-12-16',
      '2027-01-20',
      '2027-02-17',
    ]);
  });

  it('runs a series with no first date (eventSchedule without startDate) through the whole window', () => {
    const events = eventsFromFacts(
      {
        url: 'https://schema.org/eventSchedule',
        text: '',
        events: [
          {
            name: 'Example',
            timezone: 'Asia/Shanghai',
            recurrence: {
              rrule: 'FREQ=MONTHLY;BYDAY=2MO',
              rdates: [],
              exdates: [],
              openStart: { startTime: '18:00:00', endTime: '19:30:00' },
            },
          },
        ],
      },
      { searcherTimezone: 'Europe/Berlin', now: new Date('2026-11-25T12:00:00Z') },
    );
    // Window: 26 Oct 2026 to 25 Nov 2027; second Mondays 9 Nov 2026 to 8 Nov 2027, none at the anchor.
    expect(events).toHaveLength(13);
    expect(events[0]).toMatchObject({
      starts_at: '2026-11-09T18:00:00+08:00',
      ends_at: '2026-11-09T19:30:00+08:00',
      timezone: 'Asia/Shanghai',
    });
    expect(events.at(-1)?.starts_at).toBe('2027-11-08T18:00:00+08:00');
  });

  it('makes one series of all the occurrences of two RRULEs (Zimbra)', () => {
    const events = eventsFromFacts(
      {
        url: 'https://zimbra.example/home/cal.ics',
        text: '',
        events: [
          {
            name: 'sahaja <> frashed',
            startAt: '2012-03-26T11:00:00',
            endAt: '2012-03-26T11:30:00',
            timezone: 'America/Los_Angeles',
            uid: '1334F9B7-6136-444E-A58D-472564C6AA73',
            recurrence: {
              rrule: 'FREQ=WEEKLY;UNTIL=20120730T065959Z',
              moreRrules: ['FREQ=MONTHLY;BYDAY=SU;UNTIL=20120730T065959Z'],
              rdates: [],
              exdates: [],
            },
          },
        ],
      },
      { searcherTimezone: 'UTC', now: new Date('2012-03-20T12:00:00Z') },
    );
    // Mondays 26 Mar to 23 Jul (18) and Sundays 1 Apr to 29 Jul (18), in time order.
    expect(events).toHaveLength(36);
    expect(events.slice(0, 3).map((e) => e.starts_at)).toEqual([
      '2012-03-26T11:00:00-07:00',
      '2012-04-01T11:00:00-07:00',
      '2012-04-02T11:00:00-07:00',
    ]);
  });

  it('reads a UTC UNTIL as an instant, so the occurrence at that instant in the event’s zone is the last one', () => {
    // node-ical's google-calendar-kiev-tz.ics: DTSTART;TZID=Europe/Kiev:20160825T140000, UNTIL 11:00Z = 14:00 Kiev.
    const events = eventsFromFacts(
      {
        url: 'https://calendar.google.com/calendar/ical/x/basic.ics',
        text: '',
        events: [
          {
            name: 'repeated',
            startAt: '2016-08-25T14:00:00',
            endAt: '2016-08-25T15:00:00',
            timezone: 'Europe/Kiev',
            uid: '6m2q7kb2l02798oagemrcgm6pk@google.com',
            recurrence: { rrule: 'FREQ=DAILY;UNTIL=20160828T110000Z', rdates: [], exdates: [] },
          },
        ],
      },
      { searcherTimezone: 'America/Los_Angeles', now: new Date('2016-08-20T12:00:00Z') },
    );
    expect(events.map((e) => e.starts_at)).toEqual([
      '2016-08-25T14:00:00+03:00',
      '2016-08-26T14:00:00+03:00',
      '2016-08-27T14:00:00+03:00',
      '2016-08-28T14:00:00+03:00',
    ]);
  });

  it('a floating series with no zone known keys on its wall times, whoever searches', () => {
    const series: EventFact = {
      name: 'Open mic',
      startAt: '2026-05-05T21:30',
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4', rdates: [], exdates: [] },
    };
    const tokyo = read([series], 'Asia/Tokyo');
    const denver = read([series], 'America/Denver');
    expect(tokyo.map((e) => e.key)).toEqual(denver.map((e) => e.key));
    expect(tokyo[3]?.key).toBe('series:event:open mic|@2026-05-26T21:30');
  });

  it('stops a rule that never matches (ical.js would loop for good) and keeps the rest of the page', () => {
    const dropped: [string, number][] = [];
    const started = performance.now();
    const never = (name: string, rrule: string): EventFact => ({
      name,
      startAt: '2026-05-05T10:00:00',
      timezone: 'UTC',
      recurrence: { rrule, rdates: [], exdates: [] },
    });
    const events = read(
      [
        never('Feb 30th', 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'),
        // Every 7th day from a Tuesday never lands on a Monday.
        never('Mondays every 7 days', 'FREQ=DAILY;INTERVAL=7;BYDAY=MO'),
        never('April 31st', 'FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31'),
        { name: 'Fine', startAt: '2026-05-20', timezone: 'UTC' },
      ],
      'UTC',
      (what, n) => dropped.push([what, n]),
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    // Each odd series keeps its own first start (DTSTART is always an occurrence).
    expect(events.map((e) => [e.title, e.starts_at])).toEqual([
      ['Feb 30th', '2026-05-05T10:00:00+00:00'],
      ['Mondays every 7 days', '2026-05-05T10:00:00+00:00'],
      ['April 31st', '2026-05-05T10:00:00+00:00'],
      ['Fine', '2026-05-20'],
    ]);
    expect(dropped).toEqual([[expect.stringMatching(/occurrences/), 3]]);
  });

  // RFC 5545's own examples (3.8.5.3), as CalConnect's test file writes them; ical.js 2.2.1 got both wrong.
  it('reads a yearly Nth weekday past the 9th (20MO) and a week number with a weekday (BYWEEKNO=20;BYDAY=MO)', () => {
    const yearly = (name: string, startAt: string, rrule: string): EventFact => ({
      name,
      startAt,
      timezone: 'America/New_York',
      recurrence: { rrule, rdates: [], exdates: [] },
    });
    const events = eventsFromFacts(
      {
        url: page,
        events: [
          yearly('20th Monday', '1997-05-19T09:00:00', 'FREQ=YEARLY;BYDAY=20MO'),
          yearly('Monday of week 20', '1997-05-12T09:00:00', 'FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO'),
        ],
        text: '',
      },
      { searcherTimezone: 'UTC', now: new Date('1997-09-01T12:00:00Z') },
    );
    expect(events.map((e) => [e.title, e.starts_at])).toEqual([
      ['20th Monday', '1998-05-18T09:00:00-04:00'],
      ['Monday of week 20', '1998-05-11T09:00:00-04:00'],
    ]);
  });

  it('counts occurrences an override adds inside the series’ limit of 100', () => {
    // Daily from 1 May: 100 occurrences fill the limit; 50 overrides each add an occurrence at 07:00 on its day.
    const daily: EventFact = {
      name: 'Stand-up',
      startAt: '2026-05-01T09:00:00',
      timezone: 'UTC',
      uid: 'd@x',
      recurrence: { rrule: 'FREQ=DAILY', rdates: [], exdates: [] },
    };
    const added = Array.from({ length: 50 }, (_, i): EventFact => {
      const day = new Date(Date.UTC(2026, 4, 1 + i)).toISOString().slice(0, 10);
      return { name: 'Stand-up', uid: 'd@x', recurrenceId: `${day}T07:00:00`, startAt: `${day}T07:00:00`, timezone: 'UTC' };
    });
    const dropped: [string, number][] = [];
    const events = read([daily, ...added], 'UTC', (what, n) => dropped.push([what, n]));
    expect(events).toHaveLength(100);
    expect(events.filter((e) => e.starts_at?.endsWith('T07:00:00Z') || e.starts_at?.endsWith('T07:00:00+00:00'))).toHaveLength(0);
    expect(dropped.some(([what, n]) => /limit of 100/.test(what) && n >= 50)).toBe(true);
  });
});
