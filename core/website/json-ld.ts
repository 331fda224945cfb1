import { decodeHTML } from 'entities';
import { clean, type EventFact, withoutAbsent } from './event-fact';
import type { FactSink } from './fact-sink';
import { addDuration, isoDateTime } from '../time/iso-time';
import { resolveLink } from './links';
import { recurrenceOfSchedule } from './schedule';
import { isEventType, localName } from './schema-event-types';
import { statusInWords } from './status-words';

/**
 * One <script type="application/ld+json"> block's value, or undefined when it is not JSON even after the
 * mistakes sites make most (raw line breaks inside strings, trailing commas, stray backslashes: JSON_REPAIRS); the
 * page's text still carries it.
 */
export function parseJsonLd(raw: string): unknown {
  const body = raw
    .trim()
    .replace(/^(?:<!--|<!\[CDATA\[)/, '')
    .replace(/(?:-->|\]\]>)$/, '');
  for (const repair of JSON_REPAIRS) {
    try {
      return JSON.parse(repair(body));
    } catch {
      // the next repair mends more
    }
  }
  return undefined;
}

/**
 * The block as written, then with the mistakes sites make most mended: control characters (whitespace between
 * tokens, invalid inside strings: a space is right for both), trailing commas, and backslashes that start no
 * JSON escape ("Weezer & Pixies\<backspace>", "C:\dir"), dropped as JavaScript drops them.
 */
const JSON_REPAIRS: ((text: string) => string)[] = [
  (text) => text,
  (text) =>
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being replaced
      .replace(/[\u0000-\u001f]/g, ' ')
      .replace(/,\s*([}\]])/g, '$1')
      .replace(/\\(["\\/bfnrtu])|\\/g, (sequence, escaped: string | undefined) => (escaped ? sequence : '')),
];

export interface ReadOptions {
  /** The address relative links resolve against. */
  baseUrl: string;
  sink: FactSink;
}

type Node = Record<string, unknown>;

const list = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
const isNode = (value: unknown): value is Node => !!value && typeof value === 'object' && !Array.isArray(value);

/** A node's types by local name, from `@type` or its JSON-LD 1.1 alias `type`. */
export const typesOf = (node: Node): string[] =>
  list(node['@type'] ?? node.type)
    .filter((t): t is string => typeof t === 'string')
    .map(localName);

const idOf = (node: Node): string | undefined => {
  const id = node['@id'] ?? node.id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * Every schema.org Event (and subtype) anywhere in the values: arrays, @graph, ItemList pages, nested nodes and
 * sub-events. Also reads the node objects microdata and RDFa are turned into (see rdf-nodes.ts).
 */
export function eventsFromJsonLd(values: unknown[], options: ReadOptions): void {
  const seen = new Set<unknown>();
  // An explicit stack, not recursion: nesting depth is the page's choice. Depth still bounds how far from a
  // block's root an event may sit, as no real page nests events deeper. Only objects go on it: a string or
  // number holds no event. Children go on in reverse, so they come off in the order they are written.
  const stack: Visit[] = [];
  for (let i = values.length - 1; i >= 0; i--) if (isObject(values[i])) stack.push({ value: values[i], depth: 0 });
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    if (depth > 12 || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const child: unknown = value[i];
        if (isObject(child)) {
          stack.push({
            value: child,
            depth: depth + 1,
            holder: visit.holder,
            eventValued: visit.eventValued,
            calendarPrefixes: visit.calendarPrefixes,
          });
        }
      }
    } else if (isEvent(value as Node) || (visit.eventValued && typesOf(value as Node).length === 0)) {
      const node = value as Node;
      if (!isUmbrella(node)) {
        const fact = toFact(node, options.baseUrl, visit.holder);
        if (fact) options.sink.add(fact);
      }
      const subEvents = [...list(node.subEvent), ...list(node.subEvents)];
      for (let i = subEvents.length - 1; i >= 0; i--) {
        const child = subEvents[i];
        if (isObject(child)) stack.push({ value: child, depth: depth + 1, eventValued: true });
      }
    } else {
      const node = value as Node;
      const prefixes = calendarPrefixes(node, visit.calendarPrefixes);
      const calendar = calendarEvent(node, prefixes);
      const fact = calendar && toFact(calendar, options.baseUrl, visit.holder);
      if (fact) options.sink.add(fact);
      const holder = text(node.name);
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const child = node[keys[i]!];
        if (isObject(child)) {
          stack.push({ value: child, depth: depth + 1, holder, eventValued: EVENT_VALUED.has(keys[i]!), calendarPrefixes: prefixes });
        }
      }
    }
  }
}

const isObject = (value: unknown): value is object => value !== null && typeof value === 'object';

/** A value met on the way down, with what the item it is listed under says of it. */
interface Visit {
  value: unknown;
  depth: number;
  /** The name of the item (not an event) this value is a property of: a band's show, a course's instance. */
  holder?: string;
  /** The property it is a value of holds events by schema.org's range, so an untyped node there is one. */
  eventValued?: boolean;
  /** The prefixes its block's @context binds to the RDF Calendar vocabulary (see calendarEvent). */
  calendarPrefixes?: string[];
}

// The W3C RDF Calendar vocabulary (iCalendar's properties as RDF: https://www.w3.org/TR/rdfcal/), which a page
// may write its event in, in JSON-LD with no schema.org type: "ical:summary", "ical:dtstart" (apache/any23's
// saved page of the Jornadas de Software Libre in Granada). Its properties under schema.org's names.
const ICAL = 'http://www.w3.org/2002/12/cal/ical#';
const ICAL_AS_SCHEMA = new Map([
  ['summary', 'name'],
  ['dtstart', 'startDate'],
  ['dtend', 'endDate'],
  ['duration', 'duration'],
  ['location', 'location'],
  ['url', 'url'],
  ['description', 'description'],
  ['uid', 'identifier'],
]);

/** The prefixes bound to the RDF Calendar vocabulary by the node's own @context, added to those it inherits. */
function calendarPrefixes(node: Node, inherited: string[] = []): string[] {
  const own = list(node['@context'])
    .filter(isNode)
    .flatMap((context) => Object.entries(context).filter(([, iri]) => iri === ICAL || (isNode(iri) && iri['@id'] === ICAL)))
    .map(([prefix]) => prefix);
  return own.length > 0 ? [...inherited, ...own] : inherited;
}

/** A node written in the RDF Calendar vocabulary as a schema.org-shaped event, when it has a summary and a start. */
function calendarEvent(node: Node, prefixes: string[]): Node | undefined {
  const event: Node = {};
  for (const [key, value] of Object.entries(node)) {
    const colon = key.indexOf(':');
    const local = key.startsWith(ICAL)
      ? key.slice(ICAL.length)
      : colon > 0 && prefixes.includes(key.slice(0, colon))
        ? key.slice(colon + 1)
        : undefined;
    const name = local === undefined ? undefined : ICAL_AS_SCHEMA.get(local.toLowerCase());
    if (name) event[name] = value;
  }
  return event.name !== undefined && event.startDate !== undefined ? event : undefined;
}

// schema.org properties whose values are Events (hasCourseInstance: CourseInstance).
const EVENT_VALUED = new Set(['event', 'events', 'subEvent', 'subEvents', 'hasCourseInstance']);

/**
 * An event with no date of its own whose sub-events are listed (an EventSeries of editions): its dated
 * sub-events are what a calendar shows, the umbrella alone would be a dateless duplicate of them.
 */
const isUmbrella = (node: Node) => text(node.startDate) === undefined && list(node.subEvent ?? node.subEvents).length > 0;

const isEvent = (node: Node) => typesOf(node).some(isEventType);

function text(value: unknown, max?: number, depth = 0): string | undefined {
  // Nodes made from RDF can name themselves (a subject whose name is itself): a few levels are all a name needs.
  if (depth > 8) return undefined;
  if (Array.isArray(value)) return text(value[0], max, depth + 1);
  if (isNode(value)) return text(value['@value'] ?? value.name, max, depth + 1);
  const s = clean(value, max);
  return s?.includes('&') ? clean(decodeHTML(s), max) : s;
}

/** schema.org enumeration values ('https://schema.org/EventCancelled', 'EventCancelled') by local name. */
const enumName = (value: unknown) => {
  const v = Array.isArray(value) ? value[0] : value;
  const t = text(isNode(v) ? (idOf(v) ?? v.name) : v);
  return t ? localName(t) : undefined;
};

interface Location {
  place?: string;
  venue?: string;
  address?: string;
  city?: string;
  region?: string;
  country?: string;
  virtual: boolean;
  physical: boolean;
}

const ADDRESS_PARTS = ['streetAddress', 'postalCode', 'addressLocality', 'addressRegion', 'addressCountry'] as const;

/** Place, PostalAddress, VirtualLocation or plain text, one or several: the display line and the parts. */
function location(value: unknown): Location {
  const out: Location = { virtual: false, physical: false };
  const lines: string[] = [];
  for (const loc of list(value)) {
    if (typeof loc === 'string') {
      const name = text(loc);
      if (name) {
        lines.push(name);
        out.venue ??= name;
        out.physical = true;
      }
      continue;
    }
    if (!isNode(loc)) continue;
    const types = typesOf(loc);
    if (types.includes('VirtualLocation')) {
      out.virtual = true;
      lines.push(['Online', text(loc.url)].filter(Boolean).join(' '));
      continue;
    }
    // A PostalAddress given as the location itself, or a Place's address (text or PostalAddress).
    const address = types.includes('PostalAddress') ? loc : list(loc.address)[0];
    const parts = isNode(address) ? ADDRESS_PARTS.map((k) => text(address[k])) : [];
    const addressText = isNode(address) ? parts.filter(Boolean).join(', ') || undefined : text(address);
    const name = types.includes('PostalAddress') ? undefined : text(loc.name);
    lines.push([name, addressText].filter(Boolean).join(', '));
    out.venue ??= name;
    if (addressText && !out.address) {
      out.address = addressText;
      out.city = parts[2];
      out.region = parts[3];
      out.country = parts[4];
    }
    out.physical ||= !!(name || addressText);
  }
  out.place = clean(lines.filter(Boolean).join(' / '));
  return out;
}

function offers(value: unknown): string | undefined {
  const parts = list(value)
    .filter(isNode)
    .map((o) => {
      const price = o.price ?? o.lowPrice;
      const priceText =
        price === 0 || price === '0' || price === '0.00'
          ? 'free'
          : price !== undefined
            ? `${text(price)} ${text(o.priceCurrency) ?? ''}`.trim()
            : undefined;
      return [text(o.name), priceText, enumName(o.availability), text(o.url)].filter(Boolean).join(', ');
    });
  return clean(parts.filter(Boolean).join(' / '));
}

const STATUS = new Map<string, EventFact['status']>([
  ['EventCancelled', 'cancelled'],
  ['EventRescheduled', 'moved'],
  ['EventPostponed', 'moved'],
  ['EventMovedOnline', 'moved'],
]);

function identifier(node: Node): string | undefined {
  const id = idOf(node);
  if (id && !id.startsWith('_:')) return clean(id, 1000);
  const ident = list(node.identifier)[0];
  return text(isNode(ident) ? ident.value : ident, 1000);
}

/** The event's fact; one without a name of its own is named after the item it is listed under, if any. */
function toFact(node: Node, baseUrl: string, holder: string | undefined): EventFact | null {
  const name = text(node.name) ?? holder;
  if (!name) return null;
  const where = location(node.location);
  const mode = enumName(node.eventAttendanceMode);
  const online =
    mode === 'OnlineEventAttendanceMode' || (where.virtual && !where.physical)
      ? true
      : mode === 'OfflineEventAttendanceMode' || (where.physical && !where.virtual && mode !== 'MixedEventAttendanceMode')
        ? false
        : undefined;
  const schedule = list(node.eventSchedule).find(isNode);
  const series = schedule ? recurrenceOfSchedule(schedule, text(node.startDate), text(node.endDate)) : undefined;
  // Written in ISO 8601 as the site meant it ('2026-05-28 19:00', '+0200'); what is no date stays as written.
  const iso = (value: unknown) => {
    const t = text(value);
    return isoDateTime(t) ?? t;
  };
  const startAt = series?.startAt ?? iso(node.startDate);
  const endAt = series?.endAt ?? iso(node.endDate) ?? addDuration(startAt, text(node.duration));
  const id = idOf(node);
  const fact: EventFact = {
    name,
    start: text(node.startDate) ?? startAt,
    end: text(node.endDate) ?? endAt,
    place: where.place,
    url: resolveLink(text(node.url), baseUrl) ?? (id && /^https?:/i.test(id) ? resolveLink(id, baseUrl) : undefined),
    organizer: text(node.organizer),
    offers: offers(node.offers),
    description: text(node.description, 240),
    startAt,
    endAt,
    timezone: series?.timezone,
    venue: where.venue,
    address: where.address,
    city: where.city,
    region: where.region,
    country: where.country,
    online,
    // A status written as text rather than schema.org's enumeration ('Cancelled', 'Abgesagt') is read as words.
    status: STATUS.get(enumName(node.eventStatus) ?? '') ?? statusInWords(text(node.eventStatus)),
    uid: identifier(node),
    recurrence: series?.recurrence,
  };
  return withoutAbsent(fact);
}
