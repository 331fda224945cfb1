import { clean, type EventFact } from './event-fact';
import { decodeEntities } from './html-text';

/** The JSON-LD blocks of an HTML page, parsed; blocks that are not valid JSON are skipped. */
export function jsonLdBlocks(html: string): unknown[] {
  const blocks: unknown[] = [];
  const re = /<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script\s*>/gi;
  for (const m of html.matchAll(re)) {
    const raw = m[1]!.trim().replace(/^<!\[CDATA\[|\]\]>$/g, '');
    try {
      blocks.push(JSON.parse(raw));
    } catch {
      // Sites ship broken JSON-LD surprisingly often; the readable text still carries the page.
    }
  }
  return blocks;
}

const typesOf = (node: Record<string, unknown>): string[] =>
  ([] as unknown[]).concat(node['@type'] ?? []).filter((t): t is string => typeof t === 'string');

// schema.org Event and its subtypes (MusicEvent, BusinessEvent, EducationEvent, ...) all end in 'Event'.
const isEvent = (node: Record<string, unknown>) => typesOf(node).some((t) => t.endsWith('Event'));

/** Every schema.org Event found anywhere in the JSON-LD values (arrays, @graph, ItemList, nested). */
export function eventsFromJsonLd(values: unknown[], limit = 50): EventFact[] {
  const events: EventFact[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): void => {
    if (events.length >= limit || depth > 8 || value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const node = value as Record<string, unknown>;
    if (isEvent(node)) {
      const fact = toFact(node);
      if (fact) events.push(fact);
      // Sub-events (a festival's sessions) are events too.
      visit(node.subEvent, depth + 1);
      return;
    }
    for (const child of Object.values(node)) visit(child, depth + 1);
  };
  for (const value of values) visit(value, 0);
  return events;
}

function text(value: unknown, max?: number): string | undefined {
  if (Array.isArray(value)) return text(value[0], max);
  if (value && typeof value === 'object')
    return text((value as Record<string, unknown>)['@value'] ?? (value as Record<string, unknown>).name, max);
  const s = clean(value, max);
  return s ? decodeEntities(s) : undefined;
}

function place(value: unknown): string | undefined {
  const parts: string[] = [];
  for (const loc of ([] as unknown[]).concat(value ?? [])) {
    if (typeof loc === 'string') parts.push(loc);
    else if (loc && typeof loc === 'object') {
      const l = loc as Record<string, unknown>;
      if (typesOf(l).includes('VirtualLocation')) {
        parts.push(['Online', text(l.url)].filter(Boolean).join(' '));
        continue;
      }
      const address = l.address;
      const addr =
        address && typeof address === 'object'
          ? ['streetAddress', 'postalCode', 'addressLocality', 'addressRegion', 'addressCountry']
              .map((k) => text((address as Record<string, unknown>)[k]))
              .filter(Boolean)
              .join(', ')
          : text(address);
      parts.push([text(l.name), addr].filter(Boolean).join(', '));
    }
  }
  return clean(parts.filter(Boolean).join(' / '));
}

function offers(value: unknown): string | undefined {
  const list = ([] as unknown[]).concat(value ?? []).filter((o): o is Record<string, unknown> => !!o && typeof o === 'object');
  const parts = list.map((o) => {
    const price = o.price ?? o.lowPrice;
    const priceText =
      price === 0 || price === '0' || price === '0.00'
        ? 'free'
        : price !== undefined
          ? `${text(price)} ${text(o.priceCurrency) ?? ''}`.trim()
          : undefined;
    const availability = text(o.availability)?.replace(/^https?:\/\/schema\.org\//, '');
    return [text(o.name), priceText, availability, text(o.url)].filter(Boolean).join(', ');
  });
  return clean(parts.filter(Boolean).join(' / '));
}

const STATUS: Record<string, EventFact['status']> = {
  EventCancelled: 'cancelled',
  EventRescheduled: 'moved',
  EventPostponed: 'moved',
  EventMovedOnline: 'moved',
};

/** The first physical place's name and locality, and whether the event happens online. */
function where(node: Record<string, unknown>): Pick<EventFact, 'venue' | 'city' | 'online'> {
  const locations = ([] as unknown[]).concat(node.location ?? []);
  let venue: string | undefined;
  let city: string | undefined;
  let virtual = false;
  for (const loc of locations) {
    if (typeof loc === 'string') {
      venue ??= text(loc);
    } else if (loc && typeof loc === 'object') {
      const l = loc as Record<string, unknown>;
      if (typesOf(l).includes('VirtualLocation')) {
        virtual = true;
        continue;
      }
      venue ??= text(l.name);
      const address = l.address;
      city ??= address && typeof address === 'object' ? text((address as Record<string, unknown>).addressLocality) : undefined;
    }
  }
  const mode = text(node.eventAttendanceMode)?.replace(/^https?:\/\/schema\.org\//, '');
  const physical = venue !== undefined || city !== undefined;
  const online =
    mode === 'OnlineEventAttendanceMode' || (virtual && !physical)
      ? true
      : mode === 'OfflineEventAttendanceMode' || (physical && !virtual && mode !== 'MixedEventAttendanceMode')
        ? false
        : undefined;
  return { venue, city, online };
}

function toFact(node: Record<string, unknown>): EventFact | null {
  const name = text(node.name);
  if (!name) return null;
  const status = STATUS[text(node.eventStatus)?.replace(/^https?:\/\/schema\.org\//, '') ?? ''];
  const fact: EventFact = {
    name,
    start: text(node.startDate),
    end: text(node.endDate),
    place: place(node.location),
    url: text(node.url) ?? (/^https?:/.test(text(node['@id']) ?? '') ? text(node['@id']) : undefined),
    organizer: text(node.organizer),
    offers: offers(node.offers),
    description: text(node.description, 240),
    startAt: text(node.startDate),
    endAt: text(node.endDate),
    ...where(node),
    status,
  };
  // Absent fields stay absent, so a fact compares equal however it was built.
  for (const k of Object.keys(fact) as (keyof EventFact)[]) if (fact[k] === undefined) delete fact[k];
  return fact;
}
