import type { Event } from '../contract/event';
import { eventPlace } from './event-place';
import type { FoundEvent } from '../contract/event';
import { formatMovedEventDate } from '../time/event-date-format';
import { knownTimeZone } from '../time/time-zone';
import { calendarText, escapeText, timezonesOf, veventLines } from './ics';
import { oneItemPerSeries, oneCardPerSeries } from './series-card';

export interface FeedTimer {
  id: number;
  question: string;
  website: string;
  /** The timer's zone: the Atom feed's times are written in it, with its name, as the timer's messages are. */
  timezone?: string;
}

/** Calendar clients poll a subscription at this interval (RFC 7986 REFRESH-INTERVAL, and Outlook's TTL). */
export const FEED_REFRESH = 'PT1H';

const feedName = (t: FeedTimer) => `Event Finder: ${t.question.length > 60 ? `${t.question.slice(0, 59)}…` : t.question}`;

/**
 * A timer's iCal feed: one VEVENT per event of the feed's window (db/feeds.ts: the last 30 days and what is
 * upcoming, at most a few hundred; docs/decisions/data-lifecycle.md), with a stable UID from the key, SEQUENCE bumped on each
 * change, DTSTAMP the time of that change. Events without a known start cannot be calendar entries.
 */
export function timerCalendar(
  timer: FeedTimer,
  events: { event: FoundEvent; sequence: number; changedAt: Date }[],
  options: { uidDomain: string; runsUrl: string },
): string {
  // A series its source gives as one rule is one entry with its RRULE, from its earliest occurrence in the window.
  const entries = oneItemPerSeries(events, (e) => e.event, null);
  const vevents = entries.flatMap(({ event, sequence, changedAt }) => {
    const lines = veventLines({ ...event, new: false }, { stamp: changedAt, sequence, uidDomain: options.uidDomain });
    return lines ? [lines] : [];
  });
  const header = [
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(feedName(timer))}`,
    `X-WR-CALDESC:${escapeText(`Events found by your Event Finder timer: ${timer.question}${timer.website ? ` (${timer.website})` : ''}`)}`,
    // RFC 7986 URL: where the calendar's events come from, the timer's runs with their answers on the page.
    `URL:${options.runsUrl}`,
    `REFRESH-INTERVAL;VALUE=DURATION:${FEED_REFRESH}`,
    `X-PUBLISHED-TTL:${FEED_REFRESH}`,
  ];
  return calendarText(header, vevents, timezonesOf(entries.map((e) => ({ ...e.event, new: false }))));
}

// Characters XML 1.0 forbids (control characters) would make the whole feed unreadable.
const xmlAllowed = (ch: string) => {
  const c = ch.codePointAt(0)!;
  return (c >= 0x20 && c !== 0xfffe && c !== 0xffff) || c === 0x09 || c === 0x0a || c === 0x0d;
};

const xml = (s: string) =>
  Array.from(s)
    .filter(xmlAllowed)
    .join('')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * An event as an entry's line: its title, when it is in the timer's zone and naming it, as the messages write
 * it ('Thu 3 Dec 2026, 13:00 (America/New York)', docs/decisions/time.md), and its place.
 */
function eventLine(e: Event, timezone: string): string {
  const change = e.new ? '' : e.status === 'cancelled' ? 'Cancelled: ' : e.status === 'moved' ? 'Moved: ' : 'Changed: ';
  const when = formatMovedEventDate(e, knownTimeZone(timezone), { nameZone: true });
  // A series shown once says how it repeats (oneCardPerSeries).
  const repeats = e.rrule && e.repeats ? `repeats ${e.repeats}` : null;
  return [`${change}${e.title}`, when, repeats, eventPlace(e)].filter(Boolean).join(' · ');
}

/** '2 new events', '1 changed event', '1 new and 2 changed events'. */
function runCounts(events: Event[]): string {
  const fresh = events.filter((e) => e.new).length;
  const changed = events.length - fresh;
  const plural = (n: number) => (n === 1 ? 'event' : 'events');
  if (changed === 0) return `${fresh} new ${plural(fresh)}`;
  if (fresh === 0) return `${changed} changed ${plural(changed)}`;
  return `${fresh} new and ${changed} changed ${plural(changed)}`;
}

/**
 * A timer's Atom feed (RFC 4287): one entry per run that found new or changed events, newest first. An event
 * that is not new (`new` false) changed since the timer saw it; its line says so.
 */
export function timerAtom(
  timer: FeedTimer,
  runs: { runId: number; finishedAt: Date; events: Event[] }[],
  options: { selfUrl: string; idAuthority: string; runsUrl: string },
  now: Date = new Date(),
): string {
  const base = `tag:${options.idAuthority},2026:timer-${timer.id}`;
  const updated = (runs[0]?.finishedAt ?? new Date(0)).toISOString();
  // Entries and the feed open the timer's runs on the page, where each run's events are (the emails link there too).
  const runsUrl = options.runsUrl;
  const zone = timer.timezone ?? 'UTC';
  const entries = runs.map((run) => {
    const events = oneCardPerSeries(run.events, now);
    const html = `<ul>${events
      .map((e) => `<li>${e.url ? `<a href="${xml(e.url)}">${xml(eventLine(e, zone))}</a>` : xml(eventLine(e, zone))}</li>`)
      .join('')}</ul>`;
    return [
      '<entry>',
      `<id>${base}:run-${run.runId}</id>`,
      `<title>${xml(`${runCounts(events)}: ${events.map((e) => e.title).join(', ')}`.slice(0, 300))}</title>`,
      `<updated>${run.finishedAt.toISOString()}</updated>`,
      `<link rel="alternate" type="text/html" href="${xml(runsUrl)}"/>`,
      `<content type="html">${xml(html)}</content>`,
      '</entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${base}</id>`,
    `<title>${xml(feedName(timer))}</title>`,
    `<subtitle>${xml(`New events for: ${timer.question}`)}</subtitle>`,
    `<updated>${updated}</updated>`,
    '<author><name>Event Finder</name></author>',
    `<link rel="self" type="application/atom+xml" href="${xml(options.selfUrl)}"/>`,
    `<link rel="alternate" type="text/html" href="${xml(runsUrl)}"/>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
