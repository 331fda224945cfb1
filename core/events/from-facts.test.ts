import { describe, expect, it } from 'vitest';
import type { EventFact } from '../website/event-fact';
import { extractFacts } from '../website/extract';
import { eventsFromFacts } from './from-facts';
import { mergeEvents } from './merge';
import { eventsFromExtraction, parseExtraction } from './model-extraction';

const now = new Date('2026-05-01T12:00:00Z');
const page = 'https://venue.example/shows';
const html = (events: object[]) =>
  `<!doctype html><html><head><title>Shows</title>${events
    .map((e) => `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', ...e })}</script>`)
    .join('')}</head><body><h1>Shows</h1></body></html>`;
const read = (body: string, searcherTimezone: string) =>
  eventsFromFacts(extractFacts({ url: page, contentType: 'text/html', body }), { searcherTimezone, now });
const facts = (events: EventFact[]) => ({ url: page, events, text: '' });

// A show as a ticketing site writes it: a local time without offset, and the venue's postal address.
const denverShow = html([
  {
    '@type': 'MusicEvent',
    name: 'Denver show',
    startDate: '2026-05-28T19:00',
    url: 'https://venue.example/shows/denver-show',
    location: {
      '@type': 'Place',
      name: 'Ogden Theatre',
      address: {
        '@type': 'PostalAddress',
        streetAddress: '935 E Colfax Ave',
        addressLocality: 'Denver',
        addressRegion: 'CO',
        postalCode: '80218',
        addressCountry: 'US',
      },
    },
  },
]);

describe('eventsFromFacts: zones', () => {
  it('reads a time without offset in the venue’s zone, whoever searches (Denver show)', () => {
    const [berlin] = read(denverShow, 'Europe/Berlin');
    const [losAngeles] = read(denverShow, 'America/Los_Angeles');
    expect(berlin).toMatchObject({
      starts_at: '2026-05-28T19:00:00-06:00',
      timezone: 'America/Denver',
      timezone_source: 'venue',
    });
    expect(losAngeles).toEqual(berlin);
  });

  it('takes the page’s own offset for an event without one, before the searcher’s zone', () => {
    const events = eventsFromFacts(
      facts([
        { name: 'Opening night', startAt: '2026-06-01T20:00:00-04:00' },
        { name: 'Second night', startAt: '2026-06-02T20:00' },
      ]),
      { searcherTimezone: 'Asia/Tokyo', now },
    );
    expect(events[1]).toMatchObject({ starts_at: '2026-06-02T20:00:00-04:00', timezone: null, timezone_source: 'page' });
  });

  it('reads a floating time in the zone of the page’s country domain when the venue names no country', () => {
    // trafilatura's saved wehranlage-horka.de page: 'Görlitzer Str. 45, Horka /OL, 02923', no country, no offset.
    const market = { name: 'Historischer Markt', startAt: '2012-05-13T11:00:00', address: 'Görlitzer Str. 45, Horka /OL, 02923' };
    const onDe = { url: 'http://www.wehranlage-horka.de/veranstaltung/887/', events: [market], text: '' };
    for (const searcherTimezone of ['America/Los_Angeles', 'Asia/Tokyo']) {
      expect(eventsFromFacts(onDe, { searcherTimezone, now })[0]).toMatchObject({
        starts_at: '2012-05-13T11:00:00+02:00',
        timezone: 'Europe/Berlin',
        timezone_source: 'page',
      });
    }
    // A written offset, or a domain that names no one-clock country, keeps the rules before it.
    const withOffset = { ...onDe, events: [{ ...market, startAt: '2012-05-13T11:00:00-05:00' }] };
    expect(eventsFromFacts(withOffset, { searcherTimezone: 'UTC', now })[0]?.starts_at).toBe('2012-05-13T11:00:00-05:00');
    const onIo = { ...onDe, url: 'https://horka.io/veranstaltung/887/' };
    expect(eventsFromFacts(onIo, { searcherTimezone: 'Asia/Tokyo', now })[0]?.timezone_source).toBe('searcher');
  });

  it('reads the wall time a page shows in the venue’s zone when the written offset contradicts it (docs/decisions/events-as-data.md)', () => {
    // The Events Calendar on a Detroit civic site: JSON-LD writes "09:00:00+00:00", the list shows "9:00 am".
    const meeting: EventFact = {
      name: 'City Council Regular Meeting',
      startAt: '2026-07-12T09:00:00+00:00',
      endAt: '2026-07-12T11:00:00+00:00',
      address: '2 Woodward Ave, Detroit, MI 48226',
    };
    const text = 'City Council Regular Meeting\nJuly 12 @ 9:00 am - 11:00 am\n2 Woodward Ave, Detroit, MI';
    for (const searcherTimezone of ['Europe/Berlin', 'Asia/Tokyo']) {
      expect(eventsFromFacts({ url: page, events: [meeting], text }, { searcherTimezone, now })[0]).toMatchObject({
        starts_at: '2026-07-12T09:00:00-04:00',
        ends_at: '2026-07-12T11:00:00-04:00',
        timezone: 'America/Detroit',
        timezone_source: 'venue-over-offset',
      });
    }
    // Without the page showing that wall time, the written offset stands (the instant as written).
    const [unshown] = eventsFromFacts(
      { url: page, events: [meeting], text: 'City Council Regular Meeting' },
      { searcherTimezone: 'UTC', now },
    );
    expect(unshown).toMatchObject({ starts_at: '2026-07-12T05:00:00-04:00', timezone: 'America/Detroit', timezone_source: 'venue' });
    // A time written in UTC with 'Z' was converted on purpose: it stands.
    const inUtc = { ...meeting, startAt: '2026-07-12T09:00:00Z', endAt: undefined };
    expect(eventsFromFacts({ url: page, events: [inUtc], text }, { searcherTimezone: 'UTC', now })[0]?.starts_at).toBe(
      '2026-07-12T05:00:00-04:00',
    );
    // An offset that agrees with the venue's zone is simply read.
    const right = { ...meeting, startAt: '2026-07-12T09:00:00-04:00', endAt: undefined };
    expect(eventsFromFacts({ url: page, events: [right], text }, { searcherTimezone: 'UTC', now })[0]?.timezone_source).toBe('venue');
  });

  it('takes the page’s place for the venue when the page’s events agree only on the offset it contradicts', () => {
    // admboard.org's eventON list: every start written "+0:00" on Akron wall times, the venue a street alone,
    // "Akron, OH 44313" in the text, the list showing "28 may 4:30 pm".
    const meetings: EventFact[] = [
      {
        name: 'ADM Board of Directors Meeting (MAY 28)',
        startAt: '2024-05-28T16:30+00:00',
        address: '1867 West Market Street, Entrance A',
      },
      { name: 'ADM Board of Directors Meeting (DEC 10)', startAt: '2024-12-10T17:30+00:00' },
    ];
    const text =
      '28 may 4:30 pm 6:00 pm ADM Board of Directors Meeting (MAY 28)\n10 dec 5:30 pm 7:00 pm ADM Board of Directors Meeting (DEC 10)\n' +
      '1867 West Market Street, Entrance A, Akron, OH 44313';
    const read = eventsFromFacts(
      { url: 'https://admboard.org/board-of-directors/', events: meetings, text },
      { searcherTimezone: 'UTC', now },
    );
    expect(read.map((e) => [e.starts_at, e.timezone_source])).toEqual([
      ['2024-05-28T16:30:00-04:00', 'venue-over-offset'],
      ['2024-12-10T17:30:00-05:00', 'venue-over-offset'],
    ]);
    // Without the times on the page, the offset they agree on stands.
    const unshown = eventsFromFacts(
      { url: 'https://admboard.org/', events: meetings, text: 'Akron, OH 44313' },
      { searcherTimezone: 'UTC', now },
    );
    expect(unshown.map((e) => e.starts_at)).toEqual(['2024-05-28T16:30:00+00:00', '2024-12-10T17:30:00+00:00']);
  });

  it('takes the zone the page’s venues agree on for an event whose own place names none', () => {
    // cambridgewi.com's calendar: every start written -07:00, one venue in Cambridge, WI, the page showing 9:00am.
    const events: EventFact[] = [
      { name: 'Midwest Fire Fest', startAt: '2018-07-29T09:00:00-07:00', venue: 'Westside Park' },
      { name: 'Cambridge Senior Meals', startAt: '2018-07-31T12:00:00-07:00', address: '200 Spring Steet, 53523, Cambridge, WI' },
    ];
    const text = 'Midwest Fire Fest\nJul 29, 2018 9:00am\nCambridge Senior Meals\nJul 31, 2018 12:00pm';
    const read = eventsFromFacts({ url: 'https://cambridgewi.com/events-calendar/', events, text }, { searcherTimezone: 'UTC', now });
    expect(read.map((e) => e.starts_at)).toEqual(['2018-07-29T09:00:00-05:00', '2018-07-31T12:00:00-05:00']);
  });

  it('reads a floating time on a US city’s .gov site in that city’s zone (docs/decisions/events-as-data.md)', () => {
    const meeting: EventFact = { name: 'City Council Workshop', startAt: '2026-07-14T09:00:00', venue: 'City Council Chambers' };
    for (const searcherTimezone of ['Europe/Berlin', 'Asia/Tokyo']) {
      const [read] = eventsFromFacts(
        { url: 'https://www.wichita.gov/Calendar.aspx', events: [meeting], text: '' },
        { searcherTimezone, now },
      );
      expect(read).toMatchObject({ starts_at: '2026-07-14T09:00:00-05:00', timezone: 'America/Chicago', timezone_source: 'page' });
    }
  });

  it('finds the venue’s city in a place line or venue name when the address lacks it', () => {
    const meeting: EventFact = { name: 'Board Meeting', startAt: '2026-07-14T18:00:00', address: '455 N Main', venue: 'Wichita City Hall' };
    const [read] = eventsFromFacts({ url: page, events: [meeting], text: '' }, { searcherTimezone: 'Asia/Tokyo', now });
    expect(read).toMatchObject({ starts_at: '2026-07-14T18:00:00-05:00', timezone_source: 'venue' });
  });

  it('keys a floating time with no zone known on its wall date as written, not the searcher’s', () => {
    const late = facts([{ name: 'Late set', startAt: '2026-06-02T23:30' }]);
    const [tokyo] = eventsFromFacts(late, { searcherTimezone: 'Asia/Tokyo', now });
    const [honolulu] = eventsFromFacts(late, { searcherTimezone: 'Pacific/Honolulu', now });
    expect(tokyo).toMatchObject({ timezone: 'Asia/Tokyo', timezone_source: 'searcher', key: 'event:late set|2026-06-02|' });
    expect(honolulu?.key).toBe(tokyo?.key);
  });
});

describe('eventsFromFacts: strict values', () => {
  it('keeps an event with an impossible date without a date, and drops links that are not http(s)', () => {
    const events = read(
      html([
        { '@type': 'Event', name: 'Leap\u0007 gala\u202e', startDate: '2026-02-31T19:00', url: 'javascript:alert(1)' },
        { '@type': 'Event', name: 'Data link', startDate: '2026-03-01', url: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==' },
        { '@type': 'Event', name: 'Old year', startDate: '0026-05-28', url: 'vbscript:msgbox' },
      ]),
      'UTC',
    );
    expect(events.map((e) => [e.title, e.starts_at, e.url])).toEqual([
      ['Leap gala', null, null],
      ['Data link', '2026-03-01', null],
      ['Old year', null, null],
    ]);
  });

  it('bounds titles and strips control characters from every text field', () => {
    const [e] = eventsFromFacts(facts([{ name: `A${'x'.repeat(400)}`, venue: 'Hall\r\n7', city: 'Ber\u0000lin', startAt: '2026-06-01' }]), {
      searcherTimezone: 'UTC',
      now,
    });
    expect(e?.title.length).toBe(200);
    expect(e).toMatchObject({ venue: 'Hall 7', city: 'Berlin' });
  });

  it('keeps TENTATIVE', () => {
    const [e] = eventsFromFacts(facts([{ name: 'Maybe', startAt: '2026-06-01', status: 'tentative' }]), { searcherTimezone: 'UTC', now });
    expect(e?.status).toBe('tentative');
  });
});

describe('eventsFromFacts: identity', () => {
  it('never keys on the site’s root, the page itself, or a link several events share', () => {
    const events = eventsFromFacts(
      facts([
        { name: 'Conf 2026', startAt: '2026-09-01', url: 'https://venue.example/', city: 'Berlin' },
        { name: 'Listing', startAt: '2026-09-02', url: page },
        { name: 'Talk A', startAt: '2026-09-03', url: 'https://venue.example/talks' },
        { name: 'Talk B', startAt: '2026-09-04', url: 'https://venue.example/talks' },
        { name: 'Own page', startAt: '2026-09-05', url: 'https://venue.example/own' },
      ]),
      { searcherTimezone: 'UTC', now },
    );
    expect(events.map((e) => e.key)).toEqual([
      'event:conf|2026-09-01|berlin',
      'event:listing|2026-09-02|',
      'event:talk a|2026-09-03|',
      'event:talk b|2026-09-04|',
      'url:https://venue.example/own',
    ]);
  });

  it('one event read from two formats is one event; two shows on one day are two', () => {
    const events = eventsFromFacts(
      facts([
        { name: 'Matinee', startAt: '2026-06-01T15:00:00+02:00', city: 'Berlin' },
        { name: 'Matinee', startAt: '2026-06-01T20:00:00+02:00', city: 'Berlin' },
        { name: 'Matinee', startAt: '2026-06-01T13:00:00Z', city: 'Berlin', venue: 'Hall' },
      ]),
      { searcherTimezone: 'UTC', now },
    );
    expect(events.map((e) => [e.starts_at, e.venue])).toEqual([
      ['2026-06-01T15:00:00+02:00', 'Hall'],
      ['2026-06-01T20:00:00+02:00', null],
    ]);
  });

  it('a dateless model copy merges into the site’s dated copy: a 4-event calendar stays 4 events', () => {
    const site = eventsFromFacts(
      facts(
        ['Robotics Demo Day', 'LLM Meetup', 'Vision Workshop', 'Hackathon'].map((name, i) => ({
          name,
          startAt: `2026-06-0${i + 1}T18:00`,
          city: 'Berlin',
        })),
      ),
      { searcherTimezone: 'UTC', now },
    );
    const model = eventsFromExtraction(
      parseExtraction(
        JSON.stringify({
          events: ['Robotics Demo Day', 'LLM meetup', 'Vision workshop', 'Hackathon'].map((title) => ({
            title,
            starts_at: null,
            city: 'Berlin',
          })),
        }),
      ),
      { userTimezone: 'UTC', website: page, sources: [] },
    );
    const merged = mergeEvents(site, model);
    expect(merged).toHaveLength(4);
    expect(merged.every((e) => e.starts_at !== null)).toBe(true);
  });
});

describe('eventsFromFacts: an instance whose series is elsewhere', () => {
  // Lotus Notes sends one rescheduled instance alone, its own start repeated as an RDATE (CalConnect tests).
  const instance = (rdates: string[]): EventFact => ({
    name: 'Weekly sync',
    startAt: '2005-04-26T10:00:00',
    endAt: '2005-04-26T11:00:00',
    timezone: 'America/New_York',
    uid: 'lotus-1',
    recurrenceId: '2005-04-26T13:00:00Z',
    recurrence: { rdates, exdates: [] },
  });
  const context = { searcherTimezone: 'Europe/Berlin', now: new Date('2005-04-20T12:00:00Z') };

  it('is read at its own start even when it lists RDATEs, once, moved from its RECURRENCE-ID (09:00 New York)', () => {
    const events = eventsFromFacts(facts([instance(['2005-04-26T10:00:00'])]), context);
    expect(events.map((e) => [e.starts_at, e.status])).toEqual([['2005-04-26T10:00:00-04:00', 'moved']]);
  });

  it('yields the further dates its RDATEs list (the rest of a split series)', () => {
    const events = eventsFromFacts(facts([instance(['2005-04-26T10:00:00', '2005-04-27T09:00:00', '2005-04-28T11:00:00'])]), context);
    expect(events.map((e) => [e.starts_at, e.status])).toEqual([
      ['2005-04-26T10:00:00-04:00', 'moved'],
      ['2005-04-27T09:00:00-04:00', 'scheduled'],
      ['2005-04-28T11:00:00-04:00', 'scheduled'],
    ]);
    expect(new Set(events.map((e) => e.key)).size).toBe(3);
  });
});

describe('eventsFromFacts: cancelled and postponed in words', () => {
  const context = { searcherTimezone: 'America/Chicago', now };
  const meeting = (name: string, extra: object = {}) => ({
    '@type': 'Event',
    name,
    startDate: '2026-05-12T18:00:00-05:00',
    location: { '@type': 'Place', name: 'City Hall', address: '455 N Main, Wichita, KS 67202' },
    ...extra,
  });

  it('sets the status a title states, and the title keeps its words', () => {
    const events = eventsFromFacts(
      extractFacts({
        url: page,
        contentType: 'text/html',
        body: html([meeting('Board Meeting – CANCELLED'), meeting('Verschoben: Sommerfest'), meeting('Cancellation policy workshop')]),
      }),
      context,
    );
    expect(events.map((e) => [e.title, e.status])).toEqual([
      ['Board Meeting – CANCELLED', 'cancelled'],
      ['Verschoben: Sommerfest', 'moved'],
      ['Cancellation policy workshop', 'scheduled'],
    ]);
  });

  it('reads a status written as text instead of the schema.org value', () => {
    const events = eventsFromFacts(
      extractFacts({ url: page, contentType: 'text/html', body: html([meeting('Council', { eventStatus: 'Postponed' })]) }),
      context,
    );
    expect(events.map((e) => e.status)).toEqual(['moved']);
  });

  it('cancels only the occurrence whose override title says so', () => {
    const series: EventFact = {
      name: 'Chorprobe',
      startAt: '2026-05-04T19:00:00',
      timezone: 'Europe/Berlin',
      uid: 'chor-1',
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3', rdates: [], exdates: [] },
    };
    const override: EventFact = {
      name: 'Chorprobe entfällt',
      startAt: '2026-05-11T19:00:00',
      timezone: 'Europe/Berlin',
      uid: 'chor-1',
      recurrenceId: '2026-05-11T19:00:00',
    };
    const events = eventsFromFacts(facts([series, override]), context);
    expect(events.map((e) => [e.starts_at, e.title, e.status])).toEqual([
      ['2026-05-04T19:00:00+02:00', 'Chorprobe', 'scheduled'],
      ['2026-05-11T19:00:00+02:00', 'Chorprobe entfällt', 'cancelled'],
      ['2026-05-18T19:00:00+02:00', 'Chorprobe', 'scheduled'],
    ]);
  });
});

describe('eventsFromFacts: an override whose series is not in the file', () => {
  const context = { searcherTimezone: 'Europe/Berlin', now: new Date('2026-05-01T12:00:00Z') };
  const override = (startAt: string, recurrenceId: string, status?: EventFact['status']): EventFact => ({
    name: 'Team call',
    startAt,
    timezone: 'America/New_York',
    uid: 'google-1',
    recurrenceId,
    ...(status ? { status } : {}),
  });

  it('is moved when it starts at another time than the occurrence it replaces', () => {
    // 14:00Z is 10:00 in New York in May: moved to 11:00.
    const events = eventsFromFacts(facts([override('2026-05-12T11:00:00', '2026-05-12T14:00:00Z')]), context);
    expect(events.map((e) => [e.starts_at, e.status])).toEqual([['2026-05-12T11:00:00-04:00', 'moved']]);
  });

  it('is as the source says when it starts when the occurrence did', () => {
    const same = eventsFromFacts(facts([override('2026-05-12T10:00:00', '2026-05-12T14:00:00Z')]), context);
    expect(same.map((e) => e.status)).toEqual(['scheduled']);
    const cancelled = eventsFromFacts(facts([override('2026-05-13T10:00:00', '2026-05-12T14:00:00Z', 'cancelled')]), context);
    expect(cancelled.map((e) => e.status)).toEqual(['cancelled']);
  });

  it('is moved when a whole day moves to another day', () => {
    const day = { ...override('2026-05-13', '2026-05-12'), timezone: undefined };
    const events = eventsFromFacts(facts([day]), context);
    expect(events.map((e) => [e.starts_at, e.status])).toEqual([['2026-05-13', 'moved']]);
  });
});
