import { canonicalUrl } from './canonical-url';
import { isSiteRoot, localDate, localTime, normaliseCity, normaliseTitle, titleKey } from './event-key';
import { sameStart } from './event-time';
import type { FoundEvent } from '../contract/event';

const citiesAgree = (a: FoundEvent, b: FoundEvent) => !a.city || !b.city || normaliseCity(a.city) === normaliseCity(b.city);

/** Venues that may be one place: one unknown, or one name within the other ("Bluebird Theater, 3317 E Colfax Ave"). */
function venuesAgree(a: FoundEvent, b: FoundEvent): boolean {
  if (!a.venue || !b.venue) return true;
  const x = normaliseTitle(a.venue);
  const y = normaliseTitle(b.venue);
  return x.includes(y) || y.includes(x);
}

/**
 * Links that cannot tell events apart: one link a source gives to events with different titles or dates (a
 * listing page, a series' page). Such a link stays on the event but is not its key; nor is a site's root or
 * the page the events were read from (isOwnLink).
 */
function sharedLinks(lists: FoundEvent[][], canon: (url: string | null) => string | null): Set<string> {
  const shared = new Set<string>();
  for (const list of lists) {
    const seen = new Map<string, string>();
    for (const e of list) {
      const link = canon(e.url);
      if (!link) continue;
      const td = `${normaliseTitle(e.title)}|${localDate(e.starts_at)}`;
      if (seen.has(link) && seen.get(link) !== td) shared.add(link);
      seen.set(link, td);
    }
  }
  return shared;
}

/**
 * Whether two copies of the same title are one event: agreeing cities, and the same local date. Within one
 * list two timed copies must also start together (a matinee and an evening show are two events), and at
 * venues that may be one (a course starting the same day at two campuses is two events). A copy without a
 * date (the model's, from a page that gave none) is the dated copy of the same title.
 */
function sameEvent(a: FoundEvent, b: FoundEvent, sameList: boolean): boolean {
  if (!citiesAgree(a, b) || (sameList && !venuesAgree(a, b))) return false;
  if (!a.starts_at || !b.starts_at) return true;
  if (localDate(a.starts_at) !== localDate(b.starts_at)) return false;
  return !sameList || a.all_day || b.all_day || sameStart(a.starts_at, b.starts_at);
}

/**
 * One event per real event, from lists in order of trust (the website's own data first, then the model's):
 * the same event is found by its own link or by title and date (sameEvent); the first copy's fields win and
 * later copies only fill what is unknown. Each result gets its final key: a series occurrence keeps its own,
 * others their own link, else title + local date + city (docs/decisions/events-as-data.md).
 */
export function mergeEvents(...lists: FoundEvent[][]): FoundEvent[] {
  return mergeEventsRead([], ...lists);
}

/**
 * mergeEvents, where a link to one of `pagesRead` (the website pages the events were read from) is no event's
 * key. A model copy's grounding source is not such a page: when it is the event's own page, its link is the key.
 */
export function mergeEventsRead(pagesRead: (string | null)[], ...lists: FoundEvent[][]): FoundEvent[] {
  // Canonical forms are computed once per distinct address: a page's events share their source and often links.
  const canonical = new Map<string, string | null>();
  const canon = (url: string | null) => {
    if (!url) return null;
    let c = canonical.get(url);
    if (c === undefined) {
      c = canonicalUrl(url);
      canonical.set(url, c);
    }
    return c;
  };
  const shared = sharedLinks(lists, canon);
  for (const page of pagesRead) {
    const link = canon(page);
    if (link) shared.add(link);
  }
  const identity = (e: FoundEvent) => {
    const link = canon(e.url);
    return link && !shared.has(link) && !isSiteRoot(link) ? `url:${link}` : null;
  };
  const merged: FoundEvent[] = [];
  const fromList: number[] = [];
  // Candidates are looked up by identity, and by title and local date (sameEvent wants the same date, unless
  // a copy has none), so a page of thousands of events, even of one title, is not compared pairwise.
  const byIdentity = new Map<string, number>();
  const byTitle = new Map<string, number[]>();
  const byTitleDate = new Map<string, number[]>();
  const undatedByTitle = new Map<string, number[]>();
  const listIn = listOf;
  // The first merged event (in merge order, as a scan of the title's events would find it) that is this one.
  const firstSame = (candidate: FoundEvent, title: string, listIndex: number): number | undefined => {
    const same = (i: number) => sameEvent(merged[i]!, candidate, fromList[i] === listIndex);
    if (!candidate.starts_at) return byTitle.get(title)?.find(same);
    const dated = byTitleDate.get(`${title}|${localDate(candidate.starts_at)}`) ?? [];
    const undated = undatedByTitle.get(title) ?? [];
    for (let d = 0, u = 0; d < dated.length || u < undated.length; ) {
      const i = u >= undated.length || (d < dated.length && dated[d]! < undated[u]!) ? dated[d++]! : undated[u++]!;
      if (same(i)) return i;
    }
    return undefined;
  };
  lists.forEach((list, listIndex) => {
    for (const candidate of list) {
      const id = identity(candidate);
      const title = normaliseTitle(candidate.title);
      const at = (id !== null ? byIdentity.get(id) : undefined) ?? firstSame(candidate, title, listIndex);
      if (at === undefined) {
        merged.push({ ...candidate });
        fromList.push(listIndex);
        const index = merged.length - 1;
        if (id !== null) byIdentity.set(id, index);
        listIn(byTitle, title).push(index);
        if (candidate.starts_at) listIn(byTitleDate, `${title}|${localDate(candidate.starts_at)}`).push(index);
        else listIn(undatedByTitle, title).push(index);
        continue;
      }
      const match = merged[at]!;
      for (const field of ['ends_at', 'timezone', 'timezone_source', 'venue', 'city', 'online', 'url', 'source_url'] as const) {
        if (match[field] === null && candidate[field] !== null) (match as Record<string, unknown>)[field] = candidate[field];
      }
      if (match.starts_at === null && candidate.starts_at !== null) {
        if (candidate.starts_at) {
          // Now dated: found by its date from here on (the lists stay in merge order).
          const matchTitle = normaliseTitle(match.title);
          const undated = undatedByTitle.get(matchTitle)!;
          undated.splice(undated.indexOf(at), 1);
          const dated = listIn(byTitleDate, `${matchTitle}|${localDate(candidate.starts_at)}`);
          const after = dated.findIndex((i) => i > at);
          dated.splice(after === -1 ? dated.length : after, 0, at);
        }
        match.starts_at = candidate.starts_at;
        match.ends_at = candidate.ends_at;
        match.all_day = candidate.all_day;
        match.timezone = candidate.timezone;
        match.timezone_source = candidate.timezone_source;
      }
      if (match.status === 'scheduled') match.status = candidate.status;
      if (!match.key.startsWith('series:') && candidate.key.startsWith('series:')) match.key = candidate.key;
      // A repeat the answer stated for this one-off's day (core/events/stated-repeat.ts) agrees with it too.
      if (candidate.rrule && !match.repeats && match.starts_at && localDate(match.starts_at) === localDate(candidate.starts_at)) {
        match.repeats = candidate.repeats;
        match.rrule = candidate.rrule;
        match.key = candidate.key;
      }
      const matchId = identity(match);
      if (matchId !== null && !byIdentity.has(matchId)) byIdentity.set(matchId, at);
    }
  });
  const byTitleKey = new Map<string, FoundEvent[]>();
  for (const e of merged) {
    if (e.key.startsWith('series:')) continue;
    const id = identity(e);
    e.key = id ?? titleKey(e);
    if (id === null) listOf(byTitleKey, e.key).push(e);
  }
  // Two events of one title, day and city at different times (a matinee and an evening show) are two events:
  // their keys name their local start time too, so neither takes the other's place in a timer's memory or in a
  // calendar (the key is the UID). An event alone on its day keeps the key it always had.
  for (const group of byTitleKey.values()) {
    if (group.length > 1) for (const e of group) e.key = `${e.key}|${localTime(e.starts_at)}`;
  }
  // And two at one time, at different venues, name their venue too.
  const byTimedKey = new Map<string, FoundEvent[]>();
  for (const group of byTitleKey.values()) if (group.length > 1) for (const e of group) listOf(byTimedKey, e.key).push(e);
  for (const group of byTimedKey.values()) {
    if (group.length > 1) for (const e of group) e.key = `${e.key}|${e.venue ? normaliseTitle(e.venue) : ''}`;
  }
  return merged;
}

function listOf<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}
