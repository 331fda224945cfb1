import { offsetMinutes } from './zoned-time';

/*
 * A VTIMEZONE for an IANA zone, written from this runtime's Intl (no tz database in the bundle; it runs in the
 * browser too, for one event's .ics): the zone's offset at the start of the span, then each change of offset
 * inside it as its own observance with its onset (RFC 5545 3.6.5 allows an observance per onset). A calendar
 * reads times past the span at its last offset, so the span covers what the entry needs.
 */

const QUARTER_HOUR = 900_000;
const WEEK = 7 * 86_400_000;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** '+0200', '-0330': an offset as a UTC-OFFSET value. */
function utcOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

/** The local time of an instant at an offset, as a DATE-TIME without zone: '20260329T020000'. */
function localStamp(epochMs: number, offset: number): string {
  const d = new Date(epochMs + offset * 60_000);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00`;
}

/** Each instant in [from, to] at which the zone's offset changes, with the offsets before and after. */
function offsetChanges(zone: string, fromMs: number, toMs: number): { at: number; from: number; to: number }[] {
  const changes: { at: number; from: number; to: number }[] = [];
  let at = Math.floor(fromMs / QUARTER_HOUR) * QUARTER_HOUR;
  let offset = offsetMinutes(zone, at);
  // Weekly steps find each change (no zone changes twice in a week), then halving finds its quarter hour.
  while (at < toMs) {
    const next = Math.min(at + WEEK, Math.ceil(toMs / QUARTER_HOUR) * QUARTER_HOUR);
    const after = offsetMinutes(zone, next);
    if (after !== offset) {
      let [low, high] = [at, next];
      while (high - low > QUARTER_HOUR) {
        const mid = low + Math.floor((high - low) / QUARTER_HOUR / 2) * QUARTER_HOUR;
        if (offsetMinutes(zone, mid) === offset) low = mid;
        else high = mid;
      }
      changes.push({ at: high, from: offset, to: offsetMinutes(zone, high) });
      offset = offsetMinutes(zone, high);
      at = high;
      continue;
    }
    at = next;
  }
  return changes;
}

/**
 * The VTIMEZONE lines (unfolded) of `zone` for times from `fromMs` to `toMs`: STANDARD for the zone's lowest
 * offset in the span, DAYLIGHT for a higher one.
 */
export function vtimezoneLines(zone: string, fromMs: number, toMs: number): string[] {
  const first = offsetMinutes(zone, fromMs);
  const changes = offsetChanges(zone, fromMs, toMs);
  const lowest = Math.min(first, ...changes.map((c) => c.to));
  const observance = (onset: number, from: number, to: number) => {
    const kind = to > lowest ? 'DAYLIGHT' : 'STANDARD';
    return [
      `BEGIN:${kind}`,
      `DTSTART:${localStamp(onset, from)}`,
      `TZOFFSETFROM:${utcOffset(from)}`,
      `TZOFFSETTO:${utcOffset(to)}`,
      `END:${kind}`,
    ];
  };
  const start = Math.floor(fromMs / QUARTER_HOUR) * QUARTER_HOUR;
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${zone}`,
    ...observance(start, first, first),
    ...changes.flatMap((c) => observance(c.at, c.from, c.to)),
    'END:VTIMEZONE',
  ];
}
