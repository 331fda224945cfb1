import { repeated } from './repeated-text';
/**
 * Websites shaped to stall a reader: each is a calendar or page a user could name as their website, found to
 * cost seconds, gigabytes or more to parse (a custom VTIMEZONE changing every minute since 1970, overrides
 * sharing one UID, …). Shared by the tests (test/hostile-websites.test.ts) and the benchmark (bench/extraction.ts).
 */
export interface HostileSite {
  name: string;
  contentType: 'text/calendar' | 'text/html';
  body: () => string;
  /** Read in milliseconds since its cause was fixed at the root: no longer a stall to watch for. */
  quick?: true;
}

const ics = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Hostile//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');

/** A calendar's own zone with an observance rule of `freq` from 1970, and one event in it: about 330 bytes. */
const zoneBomb = (freq: string) =>
  ics(
    'BEGIN:VTIMEZONE',
    'TZID:Custom',
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    `RRULE:FREQ=${freq}`,
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    'UID:one@hostile.example',
    'SUMMARY:One event',
    'DTSTART;TZID=Custom:20260601T100000',
    'END:VEVENT',
  );

const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
const day = (i: number) => new Date(Date.UTC(2026, 4, 1) + (i % 300) * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');

const MB2 = 2 * 1024 * 1024 - 1024;

/**
 * Names Object.prototype also has (__proto__, constructor, toString, hasOwnProperty, prototype, valueOf) as a
 * page's microdata itemprops, itemrefs and ids, RDFa properties, types, prefixes and pattern ids, JSON-LD keys
 * and values, and microformats class names and rels, each beside one ordinary event of its format. A reader that
 * looks such a name up in a plain object finds the prototype's member instead of nothing and throws, losing the
 * page's other events. Written by hand; the ordinary events are the page's five shows.
 */
export const OBJECT_NAMES_PAGE = `<!doctype html><html><head><title>Names</title>
<script type="application/ld+json">{"@context":{"@vocab":"https://schema.org/","constructor":"http://www.w3.org/2002/12/cal/ical#"},
"@graph":[{"__proto__":{"@type":"Thing","toString":"t"},"constructor:summary":"c","hasOwnProperty":[1]},
{"@type":"Event","__proto__":{"x":1},"constructor":"c","prototype":"p","name":"JSON-LD show","startDate":"2026-06-01T19:00",
"eventStatus":"constructor","eventSchedule":{"@type":"Schedule","repeatFrequency":"constructor","byDay":"toString"}}]}</script>
</head><body>
<div itemscope itemtype="https://schema.org/Event" id="constructor" itemref="__proto__ toString constructor">
<span itemprop="__proto__">a</span><span itemprop="constructor">b</span><span itemprop="toString hasOwnProperty prototype">c</span>
<link itemprop="eventStatus" href="https://schema.org/valueOf">
<span itemprop="name">Microdata show</span><meta itemprop="startDate" content="2026-06-02T19:00"></div>
<p id="__proto__"><span itemprop="valueOf">v</span></p>
<div vocab="https://schema.org/" prefix="__proto__: https://schema.org/ toString: http://example.org/" typeof="Event hasOwnProperty">
<span property="__proto__">a</span><span property="constructor valueOf:name">b</span><meta property="__proto__:endDate" content="2026-06-03T21:00"><a rel="toString" href="/r">r</a>
<link property="rdfa:copy" href="constructor"><span property="name">RDFa show</span><span property="startDate" content="2026-06-03T19:00">3 June</span></div>
<div typeof="rdfa:Pattern" resource="constructor"><span property="hasOwnProperty">p</span></div>
<div class="h-event h-constructor"><a rel="__proto__ constructor toString" href="/rel">rel</a><span class="p-constructor">c</span>
<span class="u-constructor dt-constructor">u</span><span class="p-name">Microformats show</span><time class="dt-start" datetime="2026-06-04T19:00">4 June</time></div>
<div class="vevent constructor" itemref="constructor"><span class="summary">hCalendar show</span><abbr class="dtstart" title="2026-06-05T19:00">5 June</abbr></div>
</body></html>`;

export const HOSTILE_SITES: HostileSite[] = [
  { name: 'VTIMEZONE rule every minute since 1970', contentType: 'text/calendar', body: () => zoneBomb('MINUTELY'), quick: true },
  { name: 'VTIMEZONE rule every hour since 1970', contentType: 'text/calendar', body: () => zoneBomb('HOURLY'), quick: true },
  {
    name: '1,000 daily series under one UID with 1,000 overrides',
    contentType: 'text/calendar',
    body: () =>
      ics(
        ...times(1000, (i) =>
          [
            'BEGIN:VEVENT',
            'UID:same@hostile.example',
            `SUMMARY:Series ${i}`,
            'DTSTART:20260501T090000Z',
            'RRULE:FREQ=DAILY',
            'END:VEVENT',
          ].join('\r\n'),
        ),
        ...times(1000, (i) =>
          [
            'BEGIN:VEVENT',
            'UID:same@hostile.example',
            `SUMMARY:Moved ${i}`,
            `RECURRENCE-ID:${day(i)}T090000Z`,
            `DTSTART:${day(i)}T110000Z`,
            'END:VEVENT',
          ].join('\r\n'),
        ),
      ),
  },
  {
    name: '5,000 events repeating every minute',
    contentType: 'text/calendar',
    body: () =>
      ics(
        ...times(5000, (i) =>
          [
            'BEGIN:VEVENT',
            `UID:m${i}@hostile.example`,
            `SUMMARY:Minute ${i}`,
            'DTSTART:20260501T090000Z',
            'RRULE:FREQ=MINUTELY',
            'END:VEVENT',
          ].join('\r\n'),
        ),
      ),
  },
  {
    name: '50,000 EXDATEs',
    contentType: 'text/calendar',
    body: () =>
      ics(
        'BEGIN:VEVENT',
        'UID:ex@hostile.example',
        'SUMMARY:Hourly',
        'DTSTART:20200101T000000Z',
        'RRULE:FREQ=HOURLY',
        ...times(50_000, (i) => `EXDATE:${new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().replace(/[-:]|\.\d+/g, '')}`),
        'END:VEVENT',
      ),
  },
  {
    name: 'FREQ=SECONDLY with a huge COUNT',
    contentType: 'text/calendar',
    body: () =>
      ics(
        ...times(50, (i) =>
          [
            'BEGIN:VEVENT',
            `UID:s${i}@hostile.example`,
            'SUMMARY:Every second',
            'DTSTART:19700101T000000Z',
            'RRULE:FREQ=SECONDLY;COUNT=2000000000',
            'END:VEVENT',
          ].join('\r\n'),
        ),
      ),
  },
  {
    name: '2 MB of microformats',
    contentType: 'text/html',
    body: () =>
      repeated(
        MB2,
        '<html><body><div class="h-event"><time class="dt-start">2026-05-28T19:00</time>',
        (i) =>
          `<p class="p-name">Show ${i}</p><div class="h-event"><span class="p-name">Show ${i}</span><time class="dt-start">2026-06-01T19:00</time></div>`,
        '</div></body></html>',
      ),
  },
  { name: 'names Object.prototype has', contentType: 'text/html', body: () => OBJECT_NAMES_PAGE, quick: true },
  {
    name: '3,000 itemref loops',
    contentType: 'text/html',
    body: () =>
      `<html><body>${times(
        3000,
        (i) =>
          `<div itemscope itemtype="https://schema.org/Event" id="a${i}" itemref="b${i} a${(i + 1) % 3000}"><span itemprop="name">Loop ${i}</span></div>` +
          `<div id="b${i}" itemprop="location" itemscope itemtype="https://schema.org/Place" itemref="a${i}"><span itemprop="startDate">2026-06-01</span></div>`,
      ).join('')}</body></html>`,
  },
  {
    name: 'deep nesting',
    contentType: 'text/html',
    // Read quickly in a reading thread: it may be over before another request's round trip.
    quick: true,
    body: () =>
      `<html><body>${'<div itemscope itemtype="https://schema.org/Event" class="h-event" typeof="Event">'.repeat(20_000)}` +
      `<script type="application/ld+json">${'['.repeat(100_000)}${']'.repeat(100_000)}</script>${'</div>'.repeat(20_000)}</body></html>`,
  },
  {
    name: '@graph cycles',
    contentType: 'text/html',
    body: () =>
      `<html><body><script type="application/ld+json">${JSON.stringify({
        '@context': 'https://schema.org',
        '@graph': times(5000, (i) => ({
          '@id': `#e${i}`,
          '@type': 'Event',
          name: `Cycle ${i}`,
          startDate: '2026-06-01T19:00',
          superEvent: { '@id': `#e${(i + 1) % 5000}` },
          subEvent: [{ '@id': `#e${(i + 4999) % 5000}` }, { '@id': `#e${i}` }],
          location: { '@id': `#e${(i + 7) % 5000}` },
        })),
      })}</script></body></html>`,
  },
];

/**
 * A calendar of `zones` custom time zones whose observance repeats twice a day (FREQ=DAILY;BYHOUR=1,13), one
 * event in each: a hostile calendar that cost its reader a comparison with every IANA zone per zone, until zone
 * work was bounded per reading (core/website/zone-work.ts). Each call names its zones afresh.
 */
let calendarsMade = 0;
export const slowZonesCalendar = (zones: number) => {
  const tag = `${process.pid}-${++calendarsMade}-${Math.random().toString(36).slice(2, 8)}`;
  return ics(
    ...times(zones, (i) =>
      [
        'BEGIN:VTIMEZONE',
        `TZID:Zone ${tag}-${i}`,
        'BEGIN:STANDARD',
        'DTSTART:19700101T000000',
        'RRULE:FREQ=DAILY;BYHOUR=1,13',
        'TZOFFSETFROM:+0100',
        'TZOFFSETTO:+0200',
        'END:STANDARD',
        'END:VTIMEZONE',
      ].join('\r\n'),
    ),
    ...times(zones, (i) =>
      ['BEGIN:VEVENT', `UID:show-${i}@hostile.example`, 'SUMMARY:Show', `DTSTART;TZID=Zone ${tag}-${i}:20260601T100000`, 'END:VEVENT'].join(
        '\r\n',
      ),
    ),
  );
};
