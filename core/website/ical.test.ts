import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EventFact } from './event-fact';
import { FactSink } from './fact-sink';
import { eventsFromIcal } from './ical';
import { MAX_ZONE_WORK, ZoneWork } from './zone-work';

const fixture = (name: string) => readFileSync(new URL(`../../dev/standins/sites/${name}`, import.meta.url), 'utf8');

function read(ics: string, baseUrl = 'https://cal.example/feed.ics'): EventFact[] {
  const sink = new FactSink();
  eventsFromIcal(ics, { baseUrl, sink });
  return sink.events;
}

const calendar = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20260401T120000Z', ...lines, 'END:VEVENT'];

describe('iCalendar events (ical.js)', () => {
  it('unfolds lines, unescapes text, keeps time zones and skips alarms', () => {
    const events = read(fixture('meetups.ics'));
    expect(events).toHaveLength(3);
    expect(events[0]).toEqual({
      name: 'PyData Berlin: Forecasting, evaluation and LLM agents',
      start: '2026-06-09 18:30 (Europe/Berlin)',
      end: '2026-06-09 21:00 (Europe/Berlin)',
      place: 'Zalando SE, Valeska-Gert-Straße 5, 10243 Berlin',
      url: 'https://meetups.example/pydata-berlin/events/301/',
      organizer: 'PyData Berlin',
      description: 'Two talks and pizza. Doors open 18:30; talks start 19:00. Please RSVP on the meetup page.',
      startAt: '2026-06-09T18:30:00',
      endAt: '2026-06-09T21:00:00',
      timezone: 'Europe/Berlin',
      venue: 'Zalando SE, Valeska-Gert-Straße 5, 10243 Berlin',
      uid: 'event_301@meetups.example',
    });
    expect(events[1]).toMatchObject({ start: '2026-06-16 17:00 UTC', place: 'Online', startAt: '2026-06-16T17:00:00Z' });
    expect(events[1]?.timezone).toBeUndefined();
  });

  it('ends a two-day all-day event on its second day, in endAt and in the line the prompt shows', () => {
    // DTSTART;VALUE=DATE:20260701 and DTEND;VALUE=DATE:20260703: DTEND is exclusive, the event is 1 and 2 July.
    const hackathon = read(fixture('meetups.ics'))[2];
    expect(hackathon).toMatchObject({
      name: 'Berlin AI Hackathon',
      start: '2026-07-01',
      end: '2026-07-02',
      startAt: '2026-07-01',
      endAt: '2026-07-02',
    });
    const oneDay = read(calendar(...vevent('UID:d1', 'SUMMARY:Open day', 'DTSTART;VALUE=DATE:20260704', 'DTEND;VALUE=DATE:20260705')))[0];
    expect(oneDay).toMatchObject({ start: '2026-07-04', startAt: '2026-07-04', endAt: '2026-07-04' });
    expect(oneDay?.end).toBeUndefined();
  });

  it('marks cancelled and tentative events and ignores events without a summary', () => {
    const events = read(
      calendar(
        ...vevent('UID:a', 'SUMMARY:Old meetup', 'STATUS:CANCELLED', 'DTSTART:20260101T100000Z'),
        ...vevent('UID:b', 'DTSTART;VALUE=DATE:20260101'),
        ...vevent('UID:c', 'SUMMARY:Maybe meetup', 'STATUS:TENTATIVE', 'DTSTART:20260102T100000Z'),
      ),
    );
    expect(events).toEqual([
      { name: 'Old meetup (cancelled)', start: '2026-01-01 10:00 UTC', startAt: '2026-01-01T10:00:00Z', status: 'cancelled', uid: 'a' },
      { name: 'Maybe meetup', start: '2026-01-02 10:00 UTC', startAt: '2026-01-02T10:00:00Z', status: 'tentative', uid: 'c' },
    ]);
  });

  it('maps Windows zone names (Outlook, Exchange) and zone names with a prefix to IANA', () => {
    const events = read(
      calendar(
        ...vevent(
          'UID:w1',
          'SUMMARY:Standup',
          'DTSTART;TZID=W. Europe Standard Time:20260310T093000',
          'DTEND;TZID=W. Europe Standard Time:20260310T094500',
        ),
        ...vevent('UID:w2', 'SUMMARY:Review', 'DTSTART;TZID="Eastern Standard Time":20260310T140000'),
        ...vevent('UID:m1', 'SUMMARY:Lightning talks', 'DTSTART;TZID=/mozilla.org/20050126_1/America/Denver:20260528T190000'),
      ),
    );
    expect(events.map((e) => [e.startAt, e.timezone, e.start])).toEqual([
      ['2026-03-10T09:30:00', 'Europe/Berlin', '2026-03-10 09:30 (Europe/Berlin)'],
      ['2026-03-10T14:00:00', 'America/New_York', '2026-03-10 14:00 (America/New_York)'],
      ['2026-05-28T19:00:00', 'America/Denver', '2026-05-28 19:00 (America/Denver)'],
    ]);
    expect(events[0]?.endAt).toBe('2026-03-10T09:45:00');
  });

  it('maps Windows display names (Exchange 2010 TZIDs, no VTIMEZONE) to IANA by their id or cities and stated offset', () => {
    // node-ical's Office-2012-owa.ics, whose TZIDs are display names; the third is no Windows zone's name.
    const events = read(
      calendar(
        ...vevent('UID:o1', 'SUMMARY: TEST Syd', 'DTSTART;TZID="(GMT+10:00) Canberra, Melbourne, Sydney":20201028T133000'),
        ...vevent('UID:o2', 'SUMMARY: TEST', 'DTSTART;TZID="(UTC-05:00) Eastern Time (US & Canada)":20201028T133000'),
        ...vevent('UID:o3', 'SUMMARY:Nowhere', 'DTSTART;TZID="(UTC+03:00) Nowhere Land":20201028T133000'),
      ),
    );
    expect(events.map((e) => [e.startAt, e.timezone])).toEqual([
      ['2020-10-28T13:30:00', 'Australia/Sydney'],
      ['2020-10-28T13:30:00', 'America/New_York'],
      // Only the stated offset is known: a zone fixed at it (Etc/GMT's signs are POSIX's, reversed).
      ['2020-10-28T13:30:00', 'Etc/GMT-3'],
    ]);
  });

  it('sets aside an observance rule no time zone has (every minute, every hour of every month): one change at its start', () => {
    // A calendar's own zone whose offset "changes" every minute from 1970: ical.js would expand the rule to
    // millions of transitions, synchronously. Read as the one change at 1970 to +02:00, which no rule undoes.
    const bomb = (tzid: string, rule: string) => [
      'BEGIN:VTIMEZONE',
      `TZID:${tzid}`,
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      `RRULE:${rule}`,
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const events = read(
      calendar(
        ...bomb('Minutely', 'FREQ=MINUTELY'),
        ...bomb('Hourly', 'FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12'),
        ...vevent('UID:m', 'SUMMARY:Minutely', 'DTSTART;TZID=Minutely:20260601T100000'),
        ...vevent('UID:h', 'SUMMARY:Hourly', 'DTSTART;TZID=Hourly:20260601T100000'),
      ),
    );
    // +02:00 all year without DST: South Africa's zone, the most populous that keeps it.
    expect(events.map((e) => [e.name, e.startAt, e.timezone])).toEqual([
      ['Minutely', '2026-06-01T10:00:00', 'Africa/Johannesburg'],
      ['Hourly', '2026-06-01T10:00:00', 'Africa/Johannesburg'],
    ]);
  });

  it('maps an Outlook 2003 display name without its offset by the standard offset its VTIMEZONE states', () => {
    // ical4j's Standup.ics (Outlook 11.0): TZID "Canberra, Melbourne, Sydney" with that year's rules, standard +10:00.
    const zone = (tzid: string, standard: string, daylight: string, [toStandard, toDaylight] = ['1SU;BYMONTH=4', '1SU;BYMONTH=10']) => [
      'BEGIN:VTIMEZONE',
      `TZID:${tzid}`,
      'BEGIN:STANDARD',
      'DTSTART:20080406T030000',
      `RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=${toStandard}`,
      `TZOFFSETFROM:${daylight}`,
      `TZOFFSETTO:${standard}`,
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:20081005T020000',
      `RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=${toDaylight}`,
      `TZOFFSETFROM:${standard}`,
      `TZOFFSETTO:${daylight}`,
      'END:DAYLIGHT',
      'END:VTIMEZONE',
    ];
    const events = read(
      calendar(
        ...zone('Canberra, Melbourne, Sydney', '+1000', '+1100'),
        ...zone('Eastern Time (US & Canada)', '-0500', '-0400', ['1SU;BYMONTH=11', '2SU;BYMONTH=3']),
        // No Melbourne keeps +03:00 in standard time: no zone is named, and the VTIMEZONE converts.
        ...zone('Melbourne', '+0300', '+0400'),
        ...vevent('UID:s1', 'SUMMARY:Standup', 'DTSTART;TZID="Canberra, Melbourne, Sydney":20090310T093000'),
        ...vevent('UID:s2', 'SUMMARY:Review', 'DTSTART;TZID="Eastern Time (US & Canada)":20090310T093000'),
        ...vevent('UID:s3', 'SUMMARY:Launch', 'DTSTART;TZID=Melbourne:20090310T093000'),
      ),
    );
    expect(events.map((e) => [e.startAt, e.timezone])).toEqual([
      ['2009-03-10T09:30:00', 'Australia/Sydney'],
      ['2009-03-10T09:30:00', 'America/New_York'],
      ['2009-03-10T09:30:00+04:00', undefined],
    ]);
  });

  it('names a zone of the calendar’s own making by the IANA zone with its rules, else converts with it', () => {
    // Outlook writes a zone it cannot name as "Customized Time Zone" with the rules inline (here: Central Europe).
    const custom = [
      'BEGIN:VTIMEZONE',
      'TZID:Customized Time Zone',
      'BEGIN:STANDARD',
      'DTSTART:16010101T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:16010101T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3',
      'END:DAYLIGHT',
      'END:VTIMEZONE',
      // A fixed +01:30 that no country keeps: only the VTIMEZONE knows it.
      'BEGIN:VTIMEZONE',
      'TZID:Nowhere',
      'BEGIN:STANDARD',
      'DTSTART:16010101T000000',
      'TZOFFSETFROM:+0130',
      'TZOFFSETTO:+0130',
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const events = read(
      calendar(
        ...custom,
        ...vevent('UID:s', 'SUMMARY:Summer board meeting', 'DTSTART;TZID="Customized Time Zone":20260709T100000'),
        ...vevent('UID:w', 'SUMMARY:Winter board meeting', 'DTSTART;TZID="Customized Time Zone":20260115T100000'),
        ...vevent('UID:n', 'SUMMARY:Nowhere meeting', 'DTSTART;TZID=Nowhere:20260115T100000'),
      ),
    );
    // Central Europe's rules are those of many zones; the one with the most people names them.
    expect(events.map((e) => [e.startAt, e.timezone, e.start])).toEqual([
      ['2026-07-09T10:00:00', 'Europe/Berlin', '2026-07-09 10:00 (Europe/Berlin)'],
      ['2026-01-15T10:00:00', 'Europe/Berlin', '2026-01-15 10:00 (Europe/Berlin)'],
      ['2026-01-15T10:00:00+01:30', undefined, '2026-01-15 10:00 (UTC+01:30)'],
    ]);
  });

  describe('a calendar’s own zones, worked out within a bound per reading', () => {
    /** A zone of a calendar's own making at a fixed offset (`+0530`), which no name lookup names. */
    const fixedZone = (tzid: string, offset: string) => [
      'BEGIN:VTIMEZONE',
      `TZID:${tzid}`,
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      `TZOFFSETFROM:${offset}`,
      `TZOFFSETTO:${offset}`,
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const written = (offset: string) => `${offset.slice(0, 3)}:${offset.slice(3)}`;
    /** The offset an IANA zone is at on an instant, as '+05:30'. */
    const offsetIn = (zone: string, at: Date) => {
      const name = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')!.value;
      return name === 'GMT' ? '+00:00' : name.slice(3);
    };

    it('works out at most MAX_ZONE_WORK of them; the others’ events are read at the instant their rules give', () => {
      // 30 zones, each at an offset some country keeps all year, so each could be named by an IANA zone.
      const offsets = [
        ...Array.from({ length: 26 }, (_, i) => i - 11).map((h) => `${h < 0 ? '-' : '+'}${String(Math.abs(h)).padStart(2, '0')}00`),
        '+0330',
        '+0430',
        '+0530',
        '+0545',
      ];
      const events = read(
        calendar(
          ...offsets.flatMap((offset, i) => fixedZone(`Own ${i}`, offset)),
          ...offsets.flatMap((_, i) => vevent(`UID:e${i}`, `SUMMARY:Event ${i}`, `DTSTART;TZID=Own ${i}:20260601T100000`)),
        ),
      );
      expect(events).toHaveLength(offsets.length);
      const named = events.filter((e) => e.timezone);
      expect(named.length).toBeGreaterThan(0);
      expect(named.length).toBeLessThanOrEqual(MAX_ZONE_WORK);
      events.forEach((event, i) => {
        const offset = written(offsets[i]!);
        if (event.timezone) {
          expect(event.startAt).toBe('2026-06-01T10:00:00');
          expect(offsetIn(event.timezone, new Date(`2026-06-01T10:00:00${offset}`))).toBe(offset);
        } else {
          expect([event.startAt, event.start]).toEqual([`2026-06-01T10:00:00${offset}`, `2026-06-01 10:00 (UTC${offset})`]);
        }
      });
    });

    it('compares one zone’s rules once per year within the bound: a calendar of thirty years reads the rest by offset', () => {
      const events = read(
        calendar(
          'BEGIN:VTIMEZONE',
          'TZID:Customized Time Zone',
          'BEGIN:STANDARD',
          'DTSTART:16010101T030000',
          'TZOFFSETFROM:+0200',
          'TZOFFSETTO:+0100',
          'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10',
          'END:STANDARD',
          'BEGIN:DAYLIGHT',
          'DTSTART:16010101T020000',
          'TZOFFSETFROM:+0100',
          'TZOFFSETTO:+0200',
          'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3',
          'END:DAYLIGHT',
          'END:VTIMEZONE',
          ...Array.from({ length: 30 }, (_, i) =>
            vevent(`UID:y${i}`, 'SUMMARY:Summer fair', `DTSTART;TZID="Customized Time Zone":${2001 + i}0709T100000`),
          ).flat(),
        ),
      );
      expect(events).toHaveLength(30);
      const named = events.filter((e) => e.timezone);
      expect(named.length).toBeGreaterThan(0);
      expect(named.length).toBeLessThanOrEqual(MAX_ZONE_WORK);
      expect(new Set(named.map((e) => e.timezone))).toEqual(new Set(['Europe/Berlin']));
      // Past the bound, still the right instant: summer time in Central Europe.
      expect(events.filter((e) => !e.timezone).every((e) => e.startAt?.endsWith('T10:00:00+02:00'))).toBe(true);
    });

    it('names every zone with rules it has compared, past the bound too: a thousand TZIDs with the same rules', () => {
      const zones = Array.from({ length: 1000 }, (_, i) => fixedZone(`Stage ${i}`, '+0200')).flat();
      const shows = Array.from({ length: 1000 }, (_, i) => vevent(`UID:s${i}`, 'SUMMARY:Show', `DTSTART;TZID=Stage ${i}:20260601T100000`));
      const sink = new FactSink();
      // One piece of work for the first TZID's display name, one for its rules: no more.
      eventsFromIcal(calendar(...zones, ...shows.flat()), { baseUrl: 'https://cal.example/feed.ics', sink, zoneWork: new ZoneWork(2) });
      expect(sink.events).toHaveLength(1000);
      expect(new Set(sink.events.map((e) => e.timezone))).toEqual(new Set(['Africa/Johannesburg']));
    });

    it('shares the bound between the calendars one reading reads together', () => {
      const work = new ZoneWork();
      const one = (offset: string) => {
        const sink = new FactSink();
        const ics = calendar(...fixedZone('Ours', offset), ...vevent('UID:o', 'SUMMARY:Ours', 'DTSTART;TZID=Ours:20260601T100000'));
        eventsFromIcal(ics, { baseUrl: 'https://cal.example/feed.ics', sink, zoneWork: work });
        return sink.events[0]!;
      };
      // Each calendar's zone costs a lookup of its name and a comparison of its rules.
      const first = Array.from({ length: MAX_ZONE_WORK / 2 }, (_, i) => one(`+0${i + 1}00`));
      expect(first.every((e) => e.timezone)).toBe(true);
      const past = one('+0900');
      expect([past.timezone, past.startAt]).toEqual([undefined, '2026-06-01T10:00:00+09:00']);
    });
  });

  it('keeps floating times as written, unless the calendar names its zone (X-WR-TIMEZONE)', () => {
    const floating = read(calendar(...vevent('UID:f', 'SUMMARY:Show', 'DTSTART:20260528T190000')))[0];
    expect(floating).toMatchObject({ startAt: '2026-05-28T19:00:00', start: '2026-05-28 19:00 (local time)' });
    expect(floating?.timezone).toBeUndefined();
    const named = read(calendar('X-WR-TIMEZONE:America/Denver', ...vevent('UID:f', 'SUMMARY:Show', 'DTSTART:20260528T190000')))[0];
    expect(named).toMatchObject({ startAt: '2026-05-28T19:00:00', timezone: 'America/Denver' });
  });

  it("reads a floating start or end in the zone its event's other time names", () => {
    const [startFloating, endFloating, bothFloating] = read(
      calendar(
        ...vevent('UID:a', 'SUMMARY:error', 'DTSTART:20250814T180000', 'DTEND;TZID=Europe/Brussels:20250814T190000'),
        ...vevent('UID:b', 'SUMMARY:Talk', 'DTSTART;TZID=America/Chicago:20250814T180000', 'DTEND:20250814T190000'),
        ...vevent('UID:c', 'SUMMARY:Show', 'DTSTART:20250814T180000', 'DTEND:20250814T190000'),
      ),
    );
    expect(startFloating).toMatchObject({
      startAt: '2025-08-14T18:00:00',
      timezone: 'Europe/Brussels',
      start: '2025-08-14 18:00 (Europe/Brussels)',
    });
    expect(endFloating).toMatchObject({
      endAt: '2025-08-14T19:00:00',
      timezone: 'America/Chicago',
      end: '2025-08-14 19:00 (America/Chicago)',
    });
    expect(bothFloating).toMatchObject({ start: '2025-08-14 18:00 (local time)', end: '2025-08-14 19:00 (local time)' });
    expect(bothFloating?.timezone).toBeUndefined();
  });

  it('turns DURATION into an end', () => {
    const events = read(
      calendar(
        ...vevent('UID:d1', 'SUMMARY:Talk', 'DTSTART;TZID=Europe/Berlin:20260609T183000', 'DURATION:PT1H45M'),
        ...vevent('UID:d2', 'SUMMARY:Festival', 'DTSTART;VALUE=DATE:20260701', 'DURATION:P3D'),
      ),
    );
    expect(events[0]).toMatchObject({ endAt: '2026-06-09T20:15:00', end: '2026-06-09 20:15 (Europe/Berlin)', timezone: 'Europe/Berlin' });
    expect(events[1]).toMatchObject({ startAt: '2026-07-01', endAt: '2026-07-03' });
  });

  it('reports a series as its rule, and a moved instance by its UID and RECURRENCE-ID, without expanding', () => {
    const events = read(
      calendar(
        ...vevent(
          'UID:weekly@club.example',
          'SUMMARY:Python meetup',
          'DTSTART;TZID=Europe/Berlin:20260106T190000',
          'DTEND;TZID=Europe/Berlin:20260106T210000',
          'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=20',
          'RDATE;TZID=Europe/Berlin:20260401T190000',
          'EXDATE;TZID=Europe/Berlin:20260113T190000,20260120T190000',
        ),
        ...vevent(
          'UID:weekly@club.example',
          'RECURRENCE-ID;TZID=Europe/Berlin:20260127T190000',
          'SUMMARY:Python meetup (moved to Thursday)',
          'DTSTART;TZID=Europe/Berlin:20260129T190000',
          'DTEND;TZID=Europe/Berlin:20260129T210000',
        ),
      ),
    );
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      uid: 'weekly@club.example',
      startAt: '2026-01-06T19:00:00',
      timezone: 'Europe/Berlin',
      recurrence: {
        rrule: 'FREQ=WEEKLY;COUNT=20;BYDAY=TU',
        rdates: ['2026-04-01T19:00:00'],
        exdates: ['2026-01-13T19:00:00', '2026-01-20T19:00:00'],
      },
    });
    expect(events[1]).toMatchObject({ uid: 'weekly@club.example', recurrenceId: '2026-01-27T19:00:00', startAt: '2026-01-29T19:00:00' });
    expect(events[1]?.recurrence).toBeUndefined();
  });

  it('keeps every RRULE of an event that has two (Zimbra)', () => {
    // kewisch/ical.js samples/multiple_rrules.ics, a Zimbra export with two RRULEs in one VEVENT.
    const [event] = read(
      calendar(
        ...vevent(
          'UID:1334F9B7-6136-444E-A58D-472564C6AA73',
          'RRULE:FREQ=WEEKLY;UNTIL=20120730T065959Z',
          'RRULE:FREQ=MONTHLY;BYDAY=SU;UNTIL=20120730T065959Z',
          'SUMMARY:sahaja <> frashed',
          'DTSTART;TZID=America/Los_Angeles:20120326T110000',
          'DTEND;TZID=America/Los_Angeles:20120326T113000',
        ),
      ),
    );
    expect(event?.recurrence).toEqual({
      rrule: 'FREQ=WEEKLY;UNTIL=20120730T065959Z',
      moreRrules: ['FREQ=MONTHLY;BYDAY=SU;UNTIL=20120730T065959Z'],
      rdates: [],
      exdates: [],
    });
  });

  it('reads a date written without VALUE=DATE as a date, and leaves out an event whose DTSTART is no date', () => {
    // node-ical's test/fixtures date-duration.ics (Synology) and the last VEVENT of its multi-event-basic.ics.
    const events = read(
      calendar(
        ...vevent('UID:20240215T101655-b6e4bbe9@192.168.178.100', 'SUMMARY:period test2', 'DTSTART:20240215', 'DURATION:PT1W'),
        ...vevent('SUMMARY;CHARSET=utf-8:Foobar', 'UID:sdfkf09fsd0', 'DTSTART;VALUE=DATE:Next Year', 'DTEND;VALUE=DATE:20111203'),
      ),
    );
    expect(events.map((e) => [e.name, e.startAt, e.endAt])).toEqual([['period test2', '2024-02-15', '2024-02-21']]);
  });

  it('leaves out an event whose DTSTART is a date no calendar has, and an EXDATE that is none', () => {
    // ics-parser's examples/ICal.ics: DTSTART:20171032T000000 ("Invalid date - parser will skip the event").
    const events = read(
      calendar(
        ...vevent('UID:i1', 'SUMMARY:Invalid date', 'DTSTART:20171032T000000', 'DTEND:20171101T2300'),
        ...vevent('UID:i2', 'SUMMARY:Leap', 'DTSTART:20240229T100000Z', 'RRULE:FREQ=YEARLY', 'EXDATE:20250229T100000Z,20280229T100000Z'),
      ),
    );
    expect(events.map((e) => [e.name, e.startAt, e.recurrence?.exdates])).toEqual([
      ['Leap', '2024-02-29T10:00:00Z', ['2028-02-29T10:00:00Z']],
    ]);
  });

  it('reads a RRULE written with spaces after its commas, and keeps the calendar when one value cannot be read', () => {
    // collective/icalendar's issue_165_missing_event.ics (Microsoft CDO): BYDAY=MO, TU, WE, TH, FR made ical.js
    // refuse the whole calendar. A rule no reading can save (BYDAY=XX) costs its own event (docs/decisions/reading-a-website.md).
    const events = read(
      calendar(
        ...vevent(
          'SUMMARY:Standup',
          'DTSTART:20150703T080000Z',
          'RRULE:FREQ=DAILY;UNTIL=20150722T080000Z;INTERVAL=1;BYDAY=MO, TU, WE, TH, FR',
          ' ;WKST=SU',
        ),
        ...vevent('UID:b', 'SUMMARY:Broken rule', 'DTSTART:20150704T080000Z', 'RRULE:FREQ=WEEKLY;BYDAY=XX'),
        ...vevent('UID:c', 'SUMMARY:Plain', 'DTSTART:20150705T080000Z'),
      ),
    );
    expect(events.map((e) => [e.name, e.startAt, e.recurrence?.rrule])).toEqual([
      ['Standup', '2015-07-03T08:00:00Z', 'FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20150722T080000Z;WKST=SU'],
      ['Plain', '2015-07-05T08:00:00Z', undefined],
    ]);
  });

  it('resolves a relative URL against the calendar and drops links that are not http(s)', () => {
    const events = read(
      calendar(
        ...vevent('UID:u1', 'SUMMARY:A', 'DTSTART:20260101T100000Z', 'URL:/events/a'),
        ...vevent('UID:u2', 'SUMMARY:B', 'DTSTART:20260101T100000Z', 'URL:javascript:alert(1)'),
      ),
      'https://club.example/calendar/all.ics',
    );
    expect(events[0]?.url).toBe('https://club.example/events/a');
    expect(events[1]?.url).toBeUndefined();
  });

  it('reads the rest when a value is written wrong: a bad DURATION costs the end, a bad zone its offset, a bad RRULE its event', () => {
    const sink = new FactSink();
    const ics = calendar(
      'BEGIN:VTIMEZONE',
      'TZID:Club time',
      'BEGIN:STANDARD',
      'DTSTART:19701025T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+01x0',
      'END:STANDARD',
      'END:VTIMEZONE',
      ...vevent('UID:a@x', 'SUMMARY:Open mic', 'DTSTART:20260601T190000Z', 'DURATION:PW'),
      ...vevent('UID:b@x', 'SUMMARY:Club night', 'DTSTART;TZID=Club time:20260602T230000'),
      ...vevent('UID:c@x', 'SUMMARY:Weekly jam', 'DTSTART:20260603T180000Z', 'RRULE:FREQ=WEEKLY;COUNT=ag'),
      ...vevent('UID:d@x', 'SUMMARY:Quiz', 'DTSTART:20260604T180000Z', 'DTEND:20260604T200000Z'),
    );
    eventsFromIcal(ics, { baseUrl: 'https://cal.example/feed.ics', sink });
    expect(sink.events.map((e) => [e.name, e.startAt, e.endAt])).toEqual([
      ['Open mic', '2026-06-01T19:00:00Z', undefined],
      ['Club night', '2026-06-02T23:00:00', undefined],
      ['Quiz', '2026-06-04T18:00:00Z', '2026-06-04T20:00:00Z'],
    ]);
    expect(sink.unreadable).toBe(1);
    // Without the RRULE ical.js refuses at once, the calendar parses strictly and the bad values fail only when read.
    const strict = new FactSink();
    eventsFromIcal(ics.replace(/BEGIN:VEVENT\r\nDTSTAMP:[^\r]*\r\nUID:c@x[\s\S]*?END:VEVENT\r\n/, ''), {
      baseUrl: 'https://cal.example/feed.ics',
      sink: strict,
    });
    expect(strict.events.map((e) => e.name)).toEqual(['Open mic', 'Club night', 'Quiz']);
    expect(strict.events[1]).toMatchObject({ startAt: '2026-06-02T23:00:00', start: '2026-06-02 23:00 (local time)' });
    expect(strict.unreadable).toBe(0);
  });

  it('still reads a calendar with stray lines the strict parser refuses', () => {
    const ics = calendar(...vevent('UID:x', 'SUMMARY:Sloppy export', 'DTSTART:20260101T100000Z', 'this line lost its fold'));
    expect(read(ics).map((e) => e.name)).toEqual(['Sloppy export']);
    expect(read('not a calendar at all')).toEqual([]);
  });

  it('reads a calendar whose lines end with CR alone (Lotus Notes on classic Mac OS), folds included', () => {
    const lines = calendar(
      ...vevent(
        'UID:x',
        'SUMMARY:Old Mac ',
        ' export',
        'DTSTART;TZID=Europe/Berlin:20260101T100000',
        'RDATE;TZID=Europe/Berlin:20260102T100000',
        ' ,20260103T100000',
      ),
    );
    const events = read(lines.replace(/\r\n/g, '\r'));
    expect(events.map((e) => [e.name, e.startAt, e.timezone])).toEqual([['Old Mac export', '2026-01-01T10:00:00', 'Europe/Berlin']]);
    expect(events[0]?.recurrence?.rdates).toEqual(['2026-01-02T10:00:00', '2026-01-03T10:00:00']);
  });

  it('unescapes a text value whose VALUE parameter names no value type (Proton Calendar)', () => {
    const events = read(
      calendar(
        ...vevent(
          'UID:p',
          'DTSTART:20240201T100000Z',
          'SUMMARY;VALUE="IBE150 NAME NAMESON^n A285^n":IBE150 NAME NAMESON\\n A285\\n',
          'LOCATION;VALUE=ROOM:Hall A\\, floor 2\\; east',
        ),
      ),
    );
    expect(events.map((e) => [e.name, e.place])).toEqual([['IBE150 NAME NAMESON A285', 'Hall A, floor 2; east']]);
  });
});
