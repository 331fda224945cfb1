/**
 * How an event's date reads, shared by the page's event cards (web/components/event-date.ts) and the digest
 * messages (core/delivery/event-text.ts) so both say the same thing. Intl only: it runs in the browser too.
 */

// Building an Intl.DateTimeFormat costs far more than using one; a list of events reuses a few.
const formats = new Map<string, Intl.DateTimeFormat>();

// What a format writes after the day: nothing, the time ('…, 09:00'), or the time and the zone ('… CEST').
const DAY = 0;
const TIME = 1;
const ZONE = 2;

/** en-GB 'Thu, 18 Jun 2026', and after it what `parts` asks for. */
function dateFormat(timeZone: string, parts: number): Intl.DateTimeFormat {
  const key = parts + timeZone;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      ...(parts > DAY && { hour: '2-digit', minute: '2-digit' }),
      ...(parts === ZONE && { timeZoneName: 'short' }),
    });
    formats.set(key, format);
  }
  return format;
}

// A calendar day (the first 10 characters of an ISO date) is the same in every zone: read it in UTC.
const day = (iso: string) => dateFormat('UTC', DAY).format(new Date(`${iso.slice(0, 10)}T12:00:00Z`));

/** An all-day event's day, or its days 'Mon, 1 Jun 2026 – Wed, 3 Jun 2026' when it lasts longer. */
export function formatEventDays(startsAt: string, endsAt: string | null | undefined): string {
  const start = startsAt.slice(0, 10);
  const end = endsAt?.slice(0, 10);
  return end && end > start ? `${day(start)} – ${day(end)}` : day(start);
}

/** The zone itself when this runtime knows it, else 'UTC': an odd zone must not break a card or a message. */
export function knownTimeZone(timeZone: string): string {
  try {
    dateFormat(timeZone, TIME);
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** 'Thu, 18 Jun 2026, 09:00' in a zone from knownTimeZone, and ' CEST' after it when `zoneName`. */
export function formatEventMoment(at: Date, timeZone: string, zoneName: boolean): string {
  return dateFormat(timeZone, zoneName ? ZONE : TIME).format(at);
}
