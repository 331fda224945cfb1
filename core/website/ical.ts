import { clean, type EventFact } from './event-fact';

interface Property {
  name: string;
  params: Record<string, string>;
  value: string;
}

// RFC 5545 3.1: a long line is folded by a line break followed by one space or tab.
const unfold = (text: string) => text.replace(/\r?\n[ \t]/g, '');

// RFC 5545 3.3.11: TEXT values escape backslash, semicolon, comma and newline.
const unescapeText = (value: string) => value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

function parseLine(line: string): Property | null {
  // The value starts after the first colon that is not inside a quoted parameter value.
  let quoted = false;
  let colon = -1;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ':' && !quoted) {
      colon = i;
      break;
    }
  }
  if (colon < 0) return null;
  const [name, ...rawParams] = line.slice(0, colon).split(';');
  const params: Record<string, string> = {};
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    if (eq > 0) params[p.slice(0, eq).toUpperCase()] = p.slice(eq + 1).replace(/^"|"$/g, '');
  }
  return { name: name!.toUpperCase(), params, value: line.slice(colon + 1) };
}

/** '20250314T180000Z' → '2025-03-14 18:00 UTC'; a TZID parameter is named; a DATE value stays a date. */
export function formatIcalDate(prop: Property | undefined): string | undefined {
  if (!prop) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$/.exec(prop.value.trim());
  if (!m) return clean(prop.value);
  const [, y, mo, d, h, mi, , z] = m;
  const date = `${y}-${mo}-${d}`;
  if (!h) return date;
  const zone = z ? 'UTC' : prop.params.TZID ? `(${prop.params.TZID})` : '(local time)';
  return `${date} ${h}:${mi} ${zone}`;
}

/** Every VEVENT of an iCalendar text (feeds, .ics files, or an iCalendar block inside plain text). */
export function eventsFromIcal(ics: string, limit = 50): EventFact[] {
  const events: EventFact[] = [];
  let current: Map<string, Property> | null = null;
  let depth = 0; // nested components inside a VEVENT (VALARM) must not overwrite its properties
  for (const line of unfold(ics).split(/\r?\n/)) {
    const prop = parseLine(line);
    if (!prop) continue;
    if (prop.name === 'BEGIN') {
      if (prop.value.trim().toUpperCase() === 'VEVENT' && !current) current = new Map();
      else if (current) depth++;
      continue;
    }
    if (prop.name === 'END') {
      if (current && depth > 0) depth--;
      else if (current && prop.value.trim().toUpperCase() === 'VEVENT') {
        const fact = toFact(current);
        if (fact) events.push(fact);
        current = null;
        if (events.length >= limit) break;
      }
      continue;
    }
    if (current && depth === 0 && !current.has(prop.name)) current.set(prop.name, prop);
  }
  return events;
}

/** '20250314T180000Z' → '2025-03-14T18:00:00Z'; floating and TZID times stay without offset; DATE stays a date. */
function isoOf(prop: Property | undefined): string | undefined {
  const m = prop && /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$/.exec(prop.value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, z] = m;
  return h ? `${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${z ? 'Z' : ''}` : `${y}-${mo}-${d}`;
}

/** A DATE DTEND is exclusive (RFC 5545 3.6.1); endAt names the last day, as schema.org's endDate does. */
function lastDayOf(iso: string | undefined): string | undefined {
  if (iso?.length !== 10) return iso;
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! - 1)).toISOString().slice(0, 10);
}

function toFact(props: Map<string, Property>): EventFact | null {
  const text = (name: string, max?: number) => {
    const p = props.get(name);
    return p ? clean(unescapeText(p.value), max) : undefined;
  };
  const name = text('SUMMARY');
  if (!name) return null;
  const dtstart = props.get('DTSTART');
  const when = {
    startAt: isoOf(dtstart),
    endAt: lastDayOf(isoOf(props.get('DTEND'))),
    // A UTC or date value has no zone; only a local time with TZID names one.
    timezone: dtstart?.params.TZID && !/Z$/i.test(dtstart.value.trim()) ? dtstart.params.TZID : undefined,
  };
  if (props.get('STATUS')?.value.trim().toUpperCase() === 'CANCELLED')
    return drop({ name: `${name} (cancelled)`, start: formatIcalDate(dtstart), ...when, url: text('URL'), status: 'cancelled' });
  const organizer = props.get('ORGANIZER');
  return drop({
    name,
    start: formatIcalDate(props.get('DTSTART')),
    end: formatIcalDate(props.get('DTEND')),
    place: text('LOCATION'),
    url: text('URL'),
    organizer: organizer ? clean(organizer.params.CN ?? organizer.value.replace(/^mailto:/i, '')) : undefined,
    description: text('DESCRIPTION', 240),
    ...when,
    venue: text('LOCATION'),
  });
}

/** Absent fields stay absent, so a fact compares equal however it was built. */
function drop(fact: EventFact): EventFact {
  for (const k of Object.keys(fact) as (keyof EventFact)[]) if (fact[k] === undefined) delete fact[k];
  return fact;
}
