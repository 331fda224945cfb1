import { canonicalUrl } from './canonical-url';
import { localDate, normaliseCity, normaliseTitle, titleKey, urlKey } from './event-key';
import type { FoundEvent } from './from-facts';

const titleDate = (e: FoundEvent) => `${normaliseTitle(e.title)}|${localDate(e.starts_at)}`;
const citiesAgree = (a: FoundEvent, b: FoundEvent) => !a.city || !b.city || normaliseCity(a.city) === normaliseCity(b.city);

/**
 * Links that cannot tell events apart: a source's page address, or one link a source gives to events with
 * different titles or dates (a listing page). Such a link stays on the event but is not its key.
 */
function sharedLinks(lists: FoundEvent[][]): Set<string> {
  const shared = new Set<string>();
  for (const list of lists) {
    const seen = new Map<string, string>();
    for (const e of list) {
      const link = canonicalUrl(e.url);
      if (!link) continue;
      // The page several events were read from lists them; it is not one event's own page.
      if (link === canonicalUrl(e.source_url) && list.filter((o) => o.source_url === e.source_url).length > 1) shared.add(link);
      const td = titleDate(e);
      if (seen.has(link) && seen.get(link) !== td) shared.add(link);
      seen.set(link, td);
    }
  }
  return shared;
}

/**
 * One event per real event, from lists in order of trust (the website's own data first, then the model's):
 * the same event is found by its link or by title + local date with agreeing cities; the first list's fields
 * win and later lists only fill what is unknown. Each result gets its final key.
 */
export function mergeEvents(...lists: FoundEvent[][]): FoundEvent[] {
  const shared = sharedLinks(lists);
  const identity = (e: FoundEvent) => {
    const link = canonicalUrl(e.url);
    return link && !shared.has(link) ? urlKey(link) : null;
  };
  const merged: FoundEvent[] = [];
  for (const list of lists) {
    for (const candidate of list) {
      const id = identity(candidate);
      const match = merged.find(
        (m) => (id !== null && identity(m) === id) || (titleDate(m) === titleDate(candidate) && citiesAgree(m, candidate)),
      );
      if (!match) {
        merged.push({ ...candidate });
        continue;
      }
      for (const field of ['ends_at', 'timezone', 'venue', 'city', 'online', 'url', 'source_url'] as const) {
        if (match[field] === null && candidate[field] !== null) (match as Record<string, unknown>)[field] = candidate[field];
      }
      if (match.starts_at === null && candidate.starts_at !== null) {
        match.starts_at = candidate.starts_at;
        match.all_day = candidate.all_day;
      }
      if (match.status === 'scheduled') match.status = candidate.status;
    }
  }
  for (const e of merged) e.key = identity(e) ?? titleKey(e);
  return merged;
}
