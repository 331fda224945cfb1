import type { EventFact } from '../website/event-fact';
import { isTimeZone } from '../time/time-zone';
import { type ParsedTime, parseIsoTime, wallTimeToEpoch } from '../time/zoned-time';

/**
 * The status of an override (iCalendar RECURRENCE-ID) whose series is not in the source, as Google exports a
 * changed instance of someone else's series: `moved` when it starts at another time than the occurrence it
 * replaces, else its own. A cancelled override stays cancelled; a time that cannot be compared says nothing.
 */
export function loneOverrideStatus(f: EventFact): EventFact['status'] {
  if (f.status === 'cancelled' || !f.recurrenceId) return f.status;
  const original = parseIsoTime(f.recurrenceId);
  const actual = parseIsoTime(f.startAt);
  if (!original || !actual) return f.status;
  if (original.allDay !== actual.allDay) return 'moved';
  if (original.allDay) return original.date === actual.date ? f.status : 'moved';
  const zone = isTimeZone(f.timezone) ? f.timezone : null;
  const a = instant(original, zone);
  const b = instant(actual, zone);
  // Two floating times with no zone to place them are compared on the wall clock, as both are written; a
  // floating time and a placed one cannot be compared.
  if ((a === null) !== (b === null)) return f.status;
  const same = a !== null ? a === b : wallMs(original) === wallMs(actual);
  return same ? f.status : 'moved';
}

function instant(t: ParsedTime, zone: string | null): number | null {
  if (t.epochMs !== null) return t.epochMs;
  return zone ? wallTimeToEpoch(t.wall, zone) : null;
}

const wallMs = (t: ParsedTime) => Date.UTC(t.wall.y, t.wall.mo - 1, t.wall.d, t.wall.h, t.wall.mi, t.wall.s);

/**
 * A lone instance that lists RDATEs (Lotus Notes repeats its own start as one) is read as the series they make;
 * the occurrence at its own start is the instance, moved when its RECURRENCE-ID says it was elsewhere.
 */
export function markLoneInstance(f: EventFact, occurrences: { startAt: string; status?: EventFact['status'] }[]): void {
  if (loneOverrideStatus(f) !== 'moved' || f.status) return;
  const own = parseIsoTime(f.startAt);
  if (!own) return;
  const at = occurrences.find((o) => {
    const t = parseIsoTime(o.startAt);
    return t !== null && t.allDay === own.allDay && wallMs(t) === wallMs(own);
  });
  if (at && !at.status) at.status = 'moved';
}
