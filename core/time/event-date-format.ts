/**
 * The one way a date and time reads, everywhere: event cards, runs, next run and latest result on the page
 * (web/client/format-time.ts, web/components/event-date.ts) and the digest messages (core/delivery/event-text.ts).
 * Weekday, day, month, year and the clock, in the reader's locale ('Thu, 18 Jun 2026, 09:00' in en-GB,
 * 'Thu, Jun 18, 2026, 9:00 AM' in en-US). Intl only: it runs in the browser too. A run's line on a phone alone
 * shows a moment short (formatShortMoment, decision 050). Its formats come from the one cache (format-cache.ts).
 */

import { cachedFormat } from './format-cache';

// What a format writes: the day ('Thu, 18 Jun 2026'), the day and the time ('…, 09:00'), or, where a line has
// no room for the weekday and year, the day, month and time alone ('18 Jun, 09:00').
const DAY = 0;
const TIME = 1;
const SHORT_TIME = 2;

/** 'Thu, 18 Jun 2026' in the locale, and after it what `parts` asks for. */
function dateFormat(timeZone: string, parts: number, locale: string | undefined): Intl.DateTimeFormat {
  const format = cachedFormat(`event-date|${parts}|${locale ?? ''}|${timeZone}`, () => {
    const options: Intl.DateTimeFormatOptions = {
      timeZone,
      ...(parts !== SHORT_TIME && { weekday: 'short', year: 'numeric' }),
      day: 'numeric',
      month: 'short',
      ...(parts > DAY && { hour: 'numeric', minute: '2-digit' }),
    };
    const first = new Intl.DateTimeFormat(locale, options);
    // The clock as the locale's own short time writes it (timeStyle, which cannot go with a weekday): '09:00'
    // on a 24-hour clock, '9:00 AM' on a 12-hour one.
    return parts > DAY && /^h2[34]$/.test(first.resolvedOptions().hourCycle ?? '')
      ? new Intl.DateTimeFormat(locale, { ...options, hour: '2-digit' })
      : first;
  });
  if (!format) throw new RangeError(`No date format for the zone ${timeZone} in the locale ${locale ?? "the runtime's"}`);
  return format;
}

// A calendar day (the first 10 characters of an ISO date) is the same in every zone: read it in UTC.
const day = (iso: string, locale: string | undefined) => dateFormat('UTC', DAY, locale).format(new Date(`${iso.slice(0, 10)}T12:00:00Z`));

/** An all-day event's day, or its days 'Mon, 1 Jun 2026 – Wed, 3 Jun 2026' when it lasts longer. */
export function formatEventDays(startsAt: string, endsAt: string | null | undefined, locale?: string): string {
  const start = startsAt.slice(0, 10);
  const end = endsAt?.slice(0, 10);
  return end && end > start ? `${day(start, locale)} – ${day(end, locale)}` : day(start, locale);
}

/**
 * 'Thu, 18 Jun 2026, 09:00' in a zone from knownTimeZone (time-zone.ts); `locale` undefined is the runtime's (the browser's).
 * Callers name the zone in words where it is not the reader's own (a digest's timer zone, another zone's timer).
 */
export function formatEventMoment(at: Date, timeZone: string, locale?: string): string {
  return dateFormat(timeZone, TIME, locale).format(at);
}

/**
 * The same moment without weekday and year, '18 Jun, 09:00', for a line a phone has no room for the whole of
 * (a timer's older runs); the whole one stays beside it for screen readers and on hover.
 */
export function formatShortMoment(at: Date, timeZone: string, locale?: string): string {
  return dateFormat(timeZone, SHORT_TIME, locale).format(at);
}

/** A zone as people read it: 'America/New York'. */
export const zoneLabel = (timeZone: string) => timeZone.replace(/_/g, ' ');
