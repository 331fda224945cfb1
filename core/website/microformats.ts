import render from 'dom-serializer';
import type { Element } from 'domhandler';
import { mf2 } from 'microformats-parser';
import { clean, type EventFact } from './event-fact';
import type { FactSink } from './fact-sink';
import { addDuration, isoDateTime } from './iso-time';
import { resolveLink } from './links';

type MicroformatRoot = ReturnType<typeof mf2>['items'][number];
type MicroformatProperty = MicroformatRoot['properties'][string][number];

export interface MicroformatsOptions {
  baseUrl: string;
  sink: FactSink;
}

/**
 * Events in microformats2 (h-event) and microformats1 hCalendar (vevent, through the parser's backcompat),
 * read by microformats-parser. It takes HTML text and parses it with parse5 itself, so it is handed only the
 * event elements the page's one walk found (see readHtml), not the whole page again.
 */
export function eventsFromMicroformats(roots: Element[], options: MicroformatsOptions): void {
  // Each root is one event (its nested h-events are sub-events): roots past the bound are counted, not parsed.
  const room = Math.max(options.sink.limit - options.sink.events.length, 0);
  options.sink.dropped += Math.max(roots.length - room, 0);
  // In batches: the parser gathers the items of one document with array spreads, quadratic in their number.
  for (let i = 0; i < Math.min(roots.length, room); i += BATCH) {
    const html = `<!doctype html><html><body>${render(roots.slice(i, Math.min(i + BATCH, room)))}</body></html>`;
    const stack = [...mf2(html, { baseUrl: options.baseUrl }).items].reverse();
    while (stack.length > 0) {
      const item = stack.pop()!;
      if (item.type?.includes('h-event')) {
        const fact = toFact(item, options.baseUrl);
        if (fact) options.sink.add(fact);
      }
      for (let j = (item.children?.length ?? 0) - 1; j >= 0; j--) stack.push(item.children![j]!);
    }
  }
}

const BATCH = 50;

const isRoot = (v: MicroformatProperty | undefined): v is MicroformatRoot => !!v && typeof v === 'object' && 'properties' in v;

/** A property's text: a string, an e-* property's text value, or an embedded item's name or value. */
function str(v: MicroformatProperty | undefined, max?: number): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return clean(v, max);
  if (isRoot(v)) return str(v.properties.name?.[0], max) ?? (typeof v.value === 'string' ? clean(v.value, max) : undefined);
  return clean(v.value, max);
}

const first = (item: MicroformatRoot, name: string) => item.properties[name]?.[0];

function place(value: MicroformatProperty | undefined): Pick<EventFact, 'place' | 'venue' | 'address' | 'city' | 'region' | 'country'> {
  if (!isRoot(value)) {
    const text = str(value);
    return { place: text, venue: text };
  }
  // An h-card may carry its address inline or in a nested h-adr.
  const adr = isRoot(first(value, 'adr')) ? (first(value, 'adr') as MicroformatRoot) : value;
  const part = (name: string) => str(first(adr, name));
  const parts = ['street-address', 'postal-code', 'locality', 'region', 'country-name'].map(part);
  const address = parts.filter(Boolean).join(', ') || undefined;
  const venue = value.type?.includes('h-adr') ? undefined : str(first(value, 'name'));
  return {
    place: clean([venue, address].filter(Boolean).join(', ')) ?? str(value),
    venue,
    address,
    city: parts[2],
    region: parts[3],
    country: parts[4],
  };
}

function toFact(item: MicroformatRoot, baseUrl: string): EventFact | null {
  const name = str(first(item, 'name'));
  if (!name) return null;
  const start = str(first(item, 'start'));
  const end = str(first(item, 'end'));
  const startAt = isoDateTime(start);
  const endAt = isoDateTime(end) ?? addDuration(startAt, str(first(item, 'duration')));
  const url = str(first(item, 'url'));
  const fact: EventFact = {
    name,
    start: start ?? startAt,
    end: end ?? endAt,
    ...place(first(item, 'location')),
    url: url ? resolveLink(url, baseUrl) : undefined,
    organizer: str(first(item, 'organizer')),
    description: str(first(item, 'summary') ?? first(item, 'description') ?? first(item, 'content'), 240),
    startAt,
    endAt,
    uid: str(first(item, 'uid'), 1000),
  };
  for (const k of Object.keys(fact) as (keyof EventFact)[]) if (fact[k] === undefined) delete fact[k];
  return fact;
}
