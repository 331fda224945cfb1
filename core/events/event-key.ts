import { canonicalUrl } from './canonical-url';

// Merging a page of thousands of events normalises the same few titles and cities over and over.
const normalised = new Map<string, string>();

/** Lower-case words without accents, punctuation or a year (the date is part of the key already). */
export function normaliseTitle(title: string): string {
  let n = normalised.get(title);
  if (n === undefined) {
    if (normalised.size >= 20_000) normalised.clear();
    n = normalise(title);
    normalised.set(title, n);
  }
  return n;
}

/** normaliseTitle without its cache, for a text read once (an answer). */
export function normalise(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\((?:cancelled|canceled|postponed|rescheduled)\)/g, ' ')
    .replace(/\b(?:19|20)\d{2}\b/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

export const normaliseCity = (city: string | null | undefined): string => (city ? normaliseTitle(city) : '');

/** The local start date of an ISO start (its own offset is the event's local time): 'YYYY-MM-DD' or ''. */
export const localDate = (startsAt: string | null | undefined): string => /^\d{4}-\d{2}-\d{2}/.exec(startsAt ?? '')?.[0] ?? '';

/** The local start time of an ISO start, as written in the event's own zone: 'HH:MM', or '' for a date alone. */
export const localTime = (startsAt: string | null | undefined): string =>
  /^\d{4}-\d{2}-\d{2}T(\d{2}:\d{2})/.exec(startsAt ?? '')?.[1] ?? '';

export interface KeyFields {
  title: string;
  /** The event's local start: its date is read as written, in the event's own zone, never the searcher's. */
  starts_at: string | null;
  city: string | null;
  url: string | null;
}

/**
 * Whether a link can be one event's identity: not a site's root (next year's conference has the same home
 * page) and not the page the events were read from (a listing, or a page that will list another event later).
 */
export function isOwnLink(url: string | null | undefined, pageRead: string | null | undefined): boolean {
  const link = canonicalUrl(url);
  return !!link && !isSiteRoot(link) && link !== canonicalUrl(pageRead);
}

/** A canonical URL (canonicalUrl) without path or query: a site's home page. */
export const isSiteRoot = (canonical: string): boolean => /^https:\/\/[^/?]+$/.test(canonical);

/** 'url:<canonical URL>' when the link can be an event's identity. */
export function urlKey(url: string | null | undefined): string | null {
  const canonical = canonicalUrl(url);
  return canonical ? `url:${canonical}` : null;
}

/**
 * 'event:<title>|<local start date>|<city>': the identity of an event without a link of its own. Two such
 * events that share it at different times get '|<local start time>' added (mergeEventsRead).
 */
export function titleKey(e: Pick<KeyFields, 'title' | 'starts_at' | 'city'>): string {
  return `event:${normaliseTitle(e.title)}|${localDate(e.starts_at)}|${normaliseCity(e.city)}`;
}

/**
 * The stable key of a real event: its own canonical link (isOwnLink; `pageRead` is the website page the events
 * were read from), else title + local start date + city.
 */
export function eventKey(e: KeyFields, pageRead?: string | null): string {
  return (isOwnLink(e.url, pageRead) ? urlKey(e.url) : null) ?? titleKey(e);
}

/**
 * A short, stable digest of a key for iCalendar UIDs (cyrb53 twice, 106 bits): synchronous and tiny, since
 * the browser builds single-event .ics files too. Not a security measure.
 */
export function keyDigest(key: string): string {
  const half = (seed: number) => {
    let h1 = 0xdeadbeef ^ seed;
    let h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < key.length; i++) {
      const ch = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
  };
  return `${half(1)}${half(2)}`;
}
