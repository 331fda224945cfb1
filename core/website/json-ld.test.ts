import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EventFact } from './event-fact';
import { FactSink } from './fact-sink';
import { readHtml } from './html-document';
import { eventsFromJsonLd, parseJsonLd } from './json-ld';

const fixture = (name: string) => readFileSync(new URL(`../../dev/standins/sites/${name}`, import.meta.url), 'utf8');

function read(values: unknown[], baseUrl = 'https://club.example/events/'): EventFact[] {
  const sink = new FactSink();
  eventsFromJsonLd(values, { baseUrl, sink });
  return sink.events;
}

describe('JSON-LD events', () => {
  it('finds Events and subtypes in @graph and arrays, skipping broken blocks and non-events', () => {
    const page = readHtml(fixture('berlin-ai.html'), 'https://ai-events.example/berlin', 20_000);
    const blocks = page.jsonLd.map(parseJsonLd).filter((v) => v !== undefined);
    expect(blocks).toHaveLength(2);
    const events = read(blocks, page.baseUrl);
    expect(events.map((e) => e.name)).toEqual([
      'Applied ML Summit Berlin 2026',
      'Berlin LLM Meetup #42: Retrieval that works',
      'Hands-on: Fine-tuning open models (online)',
    ]);
    expect(events[0]).toEqual({
      name: 'Applied ML Summit Berlin 2026',
      start: '2026-06-18T09:00:00+02:00',
      end: '2026-06-19T18:00:00+02:00',
      place: 'bcc Berlin Congress Center, Alexanderstraße 11, 10178, Berlin, DE',
      url: 'https://ai-events.example/events/applied-ml-summit',
      organizer: 'AI Events Berlin',
      offers: 'Early bird, 349.00 EUR, InStock, https://ai-events.example/tickets/summit',
      description: 'Two days of talks on shipping machine learning to production & MLOps.',
      startAt: '2026-06-18T09:00:00+02:00',
      endAt: '2026-06-19T18:00:00+02:00',
      venue: 'bcc Berlin Congress Center',
      address: 'Alexanderstraße 11, 10178, Berlin, DE',
      city: 'Berlin',
      country: 'DE',
      online: false,
      uid: 'https://ai-events.example/events/applied-ml-summit#event',
    });
    expect(events[1]).toMatchObject({ place: 'Factory Berlin Görlitzer Park, Lohmühlenstraße 65, 12435 Berlin', offers: 'free' });
    expect(events[2]).toMatchObject({
      place: 'Online https://ai-events.example/live/fine-tuning',
      end: '2026-06-03T19:00:00Z',
      online: true,
    });
  });

  it('reads eventStatus as moved or cancelled', () => {
    const node = (status: string) => ({ '@type': 'Event', name: 'Talk', startDate: '2026-05-01', eventStatus: status });
    const statuses = read([
      node('https://schema.org/EventCancelled'),
      node('EventRescheduled'),
      node('http://schema.org/EventPostponed'),
      node('https://schema.org/EventScheduled'),
    ]).map((e) => e.status);
    expect(statuses).toEqual(['cancelled', 'moved', 'moved', undefined]);
  });

  it('reads every schema.org Event subtype, also the ones not named …Event, and the type/id aliases', () => {
    const events = read([
      {
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'Festival', name: 'Summer Festival', startDate: '2026-07-10' },
          { '@type': 'Hackathon', name: 'Civic Hack', startDate: '2026-07-11' },
          { '@type': 'CourseInstance', name: 'Evening class', startDate: '2026-07-12' },
          { '@type': 'EventSeries', name: 'Lecture series' },
          { type: 'MusicEvent', id: 'https://club.example/e/7', name: 'Aliased', startDate: '2026-07-13' },
          { '@type': 'schema:TheaterEvent', name: 'Prefixed', startDate: '2026-07-14' },
          { '@type': 'UserLikes', name: 'Not a happening' },
          { '@type': 'Place', name: 'Not an event' },
        ],
      },
    ]);
    expect(events.map((e) => e.name)).toEqual(['Summer Festival', 'Civic Hack', 'Evening class', 'Lecture series', 'Aliased', 'Prefixed']);
    expect(events[4]).toMatchObject({ uid: 'https://club.example/e/7', url: 'https://club.example/e/7' });
  });

  it('reads nested ItemList pages and sub-events', () => {
    const page = {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, item: { '@type': 'Thing', name: 'No event type' } },
        {
          '@type': 'ListItem',
          position: 2,
          item: {
            '@type': ['Event', 'Thing'],
            name: 'Data Festival',
            startDate: '2026-09-01',
            subEvent: [{ '@type': 'Event', name: 'Keynote' }],
          },
        },
      ],
    };
    expect(read([page]).map((e) => e.name)).toEqual(['Data Festival', 'Keynote']);
  });

  it('names an event without a name after the item it is listed under; an untyped node where schema.org puts events is one', () => {
    // schema.org's examples #eg-0009 (a MusicGroup's shows) and #eg-0333 (a Course's instances, one without @type).
    const band = {
      '@type': 'MusicGroup',
      name: 'Foo Fighters',
      event: [{ '@type': 'Event', location: 'Memphis, TN, US', startDate: '2011-05-20' }],
    };
    const course = {
      '@type': 'Course',
      name: 'HNC Accounting',
      hasCourseInstance: [
        { '@type': 'CourseInstance', location: 'Halbeath Campus Dunfermline', startDate: '2016-08-29' },
        { courseMode: 'full-time', location: 'St Brycedale Campus Kirkcaldy', startDate: '2016-08-29' },
      ],
      about: { description: 'an untyped node elsewhere is no event', startDate: '2016-01-01' },
    };
    expect(read([band, course]).map((e) => [e.name, e.startAt, e.place])).toEqual([
      ['Foo Fighters', '2011-05-20', 'Memphis, TN, US'],
      ['HNC Accounting', '2016-08-29', 'Halbeath Campus Dunfermline'],
      ['HNC Accounting', '2016-08-29', 'St Brycedale Campus Kirkcaldy'],
    ]);
  });

  it('reads the dated editions of a series, not the dateless series above them; a sub-event keeps no borrowed name', () => {
    // schema.org's example #eg-0313: an EventSeries with sub-events by @id, and a rowing sub-event with no name.
    const games = [
      {
        '@type': 'EventSeries',
        '@id': 'http://www.olympic.org/olympic-games',
        name: 'Olympic Games',
        subEvent: ['http://www.olympic.org/rio'],
      },
      {
        '@type': 'Event',
        '@id': 'http://www.olympic.org/rio',
        name: 'The Rio 2016 Summer Olympics',
        startDate: '2016-08-05',
        subEvent: { '@type': 'Event', startDate: '2016-08-06', location: 'Lagoa Stadium' },
      },
      { '@type': 'EventSeries', name: 'A dated series stays', startDate: '2026-01-01', subEvent: [{ '@type': 'Event', name: 'Part' }] },
    ];
    expect(read(games).map((e) => e.name)).toEqual(['The Rio 2016 Summer Olympics', 'A dated series stays', 'Part']);
  });
  it('splits the location into venue, address, city, region and country; a PostalAddress may be the location itself', () => {
    const [place, address, online] = read([
      {
        '@type': 'MusicEvent',
        name: 'Denver show',
        startDate: '2026-05-28T19:00',
        location: {
          '@type': 'Place',
          name: 'Bluebird Theater',
          address: {
            '@type': 'PostalAddress',
            streetAddress: '3317 E Colfax Ave',
            addressLocality: 'Denver',
            addressRegion: 'CO',
            addressCountry: { '@type': 'Country', name: 'US' },
          },
        },
      },
      {
        '@type': 'Event',
        name: 'Street fair',
        startDate: '2026-06-01',
        location: { '@type': 'PostalAddress', addressLocality: 'Lyon', addressCountry: 'FR' },
      },
      {
        '@type': 'Event',
        name: 'Webinar',
        startDate: '2026-06-02T17:00:00Z',
        location: { '@type': 'VirtualLocation', url: 'https://club.example/live' },
      },
    ]);
    expect(place).toMatchObject({
      venue: 'Bluebird Theater',
      address: '3317 E Colfax Ave, Denver, CO, US',
      city: 'Denver',
      region: 'CO',
      country: 'US',
      online: false,
    });
    // The time stays as written, without an offset: the venue's zone is core/events' to find.
    expect(place?.startAt).toBe('2026-05-28T19:00');
    expect(place?.timezone).toBeUndefined();
    expect(address).toMatchObject({ address: 'Lyon, FR', city: 'Lyon', country: 'FR', online: false });
    expect(address?.venue).toBeUndefined();
    expect(online).toMatchObject({ online: true, place: 'Online https://club.example/live' });
  });

  it('resolves relative links against the page and keeps only http(s) ones', () => {
    const events = read([
      { '@type': 'Event', name: 'Relative', startDate: '2026-06-01', url: '../tickets/42' },
      { '@type': 'Event', name: 'Script', startDate: '2026-06-01', url: 'javascript:alert(1)' },
    ]);
    expect(events[0]?.url).toBe('https://club.example/tickets/42');
    expect(events[1]?.url).toBeUndefined();
  });

  it('maps eventSchedule onto an RRULE with its zone, exceptions and end', () => {
    const [weekly, monthly] = read([
      {
        '@type': 'Event',
        name: 'Thursday run club',
        eventSchedule: {
          '@type': 'Schedule',
          startDate: '2026-01-08',
          endDate: '2026-12-31',
          startTime: '18:30:00',
          endTime: '19:30:00',
          repeatFrequency: 'P1W',
          byDay: 'https://schema.org/Thursday',
          exceptDate: '2026-12-24',
          scheduleTimezone: 'Europe/London',
        },
      },
      {
        '@type': 'Event',
        name: 'Book club',
        startDate: '2026-02-10T19:00',
        eventSchedule: { '@type': 'Schedule', repeatFrequency: 'Monthly', byDay: ['Tuesday'], byMonthWeek: 2, repeatCount: 10 },
      },
    ]);
    expect(weekly).toMatchObject({
      startAt: '2026-01-08T18:30:00',
      endAt: '2026-01-08T19:30:00',
      timezone: 'Europe/London',
      recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TH;UNTIL=20261231T235959', rdates: [], exdates: ['2026-12-24'] },
    });
    expect(monthly).toMatchObject({ startAt: '2026-02-10T19:00', recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=2TU;COUNT=10' } });
  });

  it('reads an eventSchedule without startDate as an open series with its times of day, making up no date', () => {
    // schema.org's example eg-0244 (data/issue-1457-examples.txt), as is.
    const [event] = read([
      {
        '@context': 'https://schema.org',
        '@type': 'Event',
        name: 'Example',
        eventSchedule: [
          {
            '@type': 'Schedule',
            repeatFrequency: 'P1M',
            byDay: '2MO',
            startTime: '18:00:00',
            endTime: '19:30:00',
            scheduleTimezone: 'Asia/Shanghai',
          },
        ],
      },
    ]);
    expect(event?.startAt).toBeUndefined();
    expect(event).toMatchObject({
      timezone: 'Asia/Shanghai',
      recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=2MO', rdates: [], exdates: [], openStart: { startTime: '18:00:00', endTime: '19:30:00' } },
    });
  });

  it('reads an event written in the RDF Calendar vocabulary (ical:summary, ical:dtstart) with no schema.org type', () => {
    // apache/any23's saved excerpt of osl.ugr.es (html-jsonld-fatal-error.html).
    const ICAL = 'http://www.w3.org/2002/12/cal/ical#';
    const events = read([
      {
        '@context': { ical: ICAL, xsd: 'http://www.w3.org/2001/XMLSchema#', 'ical:dtstart': { '@type': 'xsd:dateTime' } },
        'ical:summary': 'Jornadas de Software Libre',
        'ical:location': 'Por determinar. Granada,  España',
        'ical:dtstart': '2017-09-27T08:00Z',
        'ical:dtend': '2017-09-28T16:00Z',
      },
      { '@context': { cal: ICAL }, '@graph': [{ 'cal:summary': 'Nested', 'cal:dtstart': '2017-10-01' }] },
      { [`${ICAL}summary`]: 'Full IRIs', [`${ICAL}dtstart`]: { '@value': '2017-10-02T10:00' } },
      // Without the vocabulary bound, or without a start, a summary is no event.
      { 'ical:summary': 'Unbound prefix', 'ical:dtstart': '2017-10-03' },
      { '@context': { ical: ICAL }, 'ical:summary': 'No start' },
    ]);
    expect(events.map((e) => [e.name, e.startAt])).toEqual([
      ['Jornadas de Software Libre', '2017-09-27T08:00Z'],
      ['Nested', '2017-10-01'],
      ['Full IRIs', '2017-10-02T10:00'],
    ]);
    expect(events[0]).toMatchObject({ endAt: '2017-09-28T16:00Z', venue: 'Por determinar. Granada, España' });
  });

  it('takes an end from a duration when no endDate is given', () => {
    const [talk] = read([{ '@type': 'Event', name: 'Talk', startDate: '2026-06-01T19:00+02:00', duration: 'PT1H30M' }]);
    expect(talk?.endAt).toBe('2026-06-01T20:30+02:00');
  });

  it('writes dates in ISO 8601 as the site meant them, and leaves what is no date as written', () => {
    const [spaced, odd] = read([
      { '@type': 'Event', name: 'Spaced', startDate: '2026-06-01 19:00', endDate: '2026-06-01T21:00:00+0200' },
      { '@type': 'Event', name: 'Odd', startDate: 'June 1st' },
    ]);
    expect(spaced).toMatchObject({ start: '2026-06-01 19:00', startAt: '2026-06-01T19:00', endAt: '2026-06-01T21:00:00+02:00' });
    expect(odd).toMatchObject({ start: 'June 1st', startAt: 'June 1st' });
  });

  it('parses blocks with the common mistakes, and skips ones that are not JSON', () => {
    expect(parseJsonLd('{"@type":"Event","name":"Line\nbreak",}')).toEqual({ '@type': 'Event', name: 'Line break' });
    expect(parseJsonLd('<!--{"a":1}-->')).toEqual({ a: 1 });
    expect(parseJsonLd('{not json')).toBeUndefined();
  });

  it('drops a backslash that starts no JSON escape, keeping the escapes that are', () => {
    // any23's excerpt of Eventful's Los Angeles listing: "name": "Weezer & Pixies\<backspace>", made the block unreadable.
    expect(parseJsonLd('{"name": "Weezer & Pixies\\\b",\n"startDate": "2018-08-08"}')).toEqual({
      name: 'Weezer & Pixies ',
      startDate: '2018-08-08',
    });
    expect(parseJsonLd('{"path": "C:\\dir \\\\ \\"quoted\\" \\u00e9\n"}')).toEqual({ path: 'C:dir \\ "quoted" é ' });
  });

  it('reads a node that names itself (RDF makes such cycles) without running out of stack', () => {
    const show: Record<string, unknown> = { '@type': 'Event', startDate: '2026-06-01T19:00' };
    show.name = [show];
    const sink = new FactSink();
    expect(() => eventsFromJsonLd([show], { baseUrl: 'https://x.example/', sink })).not.toThrow();
    expect(sink.events).toEqual([]);
  });
});
