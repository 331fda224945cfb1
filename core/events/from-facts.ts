import type { FoundEvent } from '../contract/event';
import type { EventFact } from '../website/event-fact';
import type { WebsiteFacts } from '../website/extract';
import { statusInWords } from '../website/status-words';
import { domainZone } from './domain-zone';
import { loneOverrideStatus, markLoneInstance } from './lone-override';
import { normaliseCity, normaliseTitle } from './event-key';
import { chooseClock, eventTime, type ZoneKnowledge } from './event-time';
import { mergeEventsRead } from './merge';
import { repeatWords } from './repeat-words';
import { anchorOpenSeries, expandSeries, type Occurrence, PAGE_STEP_BUDGET, ruleOf, type StepBudget } from './recurrence';
import { cleanText, safeLink, TITLE_MAX } from './strict-values';
import { textShowsTime } from './shown-time';
import { textPlaceZone } from './text-place';
import { venueZone } from './venue-zone';
import { isTimeZone } from '../time/time-zone';
import { parseIsoTime } from '../time/zoned-time';

/** Who is looking and when: the last resort for a zone, and the anchor of the recurrence window. */
export interface FactContext {
  /** IANA zone of the searcher or the timer: used only when the source and its venue name no zone. */
  searcherTimezone: string;
  now: Date;
  /** Told what was left out and why (occurrences past a series' limit, facts without a title), to be logged. */
  onDropped?: (what: string, count: number) => void;
}

const CANCELLED_SUFFIX = /\s*\((?:cancelled|canceled)\)$/i;
const ONLINE = /^online\b/i;

/**
 * The website's own structured events as contract events, exact as the site states them (docs/decisions/events-as-data.md):
 * each time in the venue's zone (the zone the source named, else the venue's place, else the page's other
 * events, else the page's country by its domain, else the searcher's; recorded in `timezone_source`), each series expanded into its occurrences
 * around `now`, values made strict, and one event per real event with its key. `source_url` is the page.
 */
export function eventsFromFacts(website: WebsiteFacts, context: FactContext): FoundEvent[] {
  const venueZones = website.events.flatMap((f) => (f.timezone ? [] : [ownZone(f)?.zone ?? []].flat()));
  const pageVenues = agreedZone(venueZones);
  // The zone of the page's place (its address lines, else its domain), read once and only when asked.
  let place: string | null | undefined;
  const pagePlace = () => {
    if (place === undefined) place = textPlaceZone(website.text) ?? domainZone(website.url, venueZones);
    return place;
  };
  const page = pageZone(website.events) ?? zoneOf(pagePlace());
  // Every event's source is the page: its link is made safe once, not twice per event.
  const source = safeLink(website.url);
  const overrides = new Map<string, EventFact[]>();
  for (const f of website.events) {
    if (!f.recurrenceId || !f.uid) continue;
    const list = overrides.get(f.uid);
    if (list) list.push(f);
    else overrides.set(f.uid, [f]);
  }
  // A component with a RECURRENCE-ID is an instance, never its series, even when it lists RDATEs (Lotus Notes
  // repeats an instance's own start as an RDATE; Exchange lists the rest of a RANGE=THISANDFUTURE split).
  const seriesUids = new Set(website.events.filter((f) => f.recurrence && f.uid && !f.recurrenceId).map((f) => f.uid));
  const events: FoundEvent[] = [];
  let untitled = 0;
  let dropped = 0;
  // One budget for all the page's series: many odd rules cost no more than one.
  const budget: StepBudget = { steps: PAGE_STEP_BUDGET };
  for (const f of website.events) {
    if (!cleanText(f.name)) {
      untitled++;
      continue;
    }
    // An override is placed by its series; one whose series is not on the page stands alone.
    if (f.recurrenceId && f.uid && seriesUids.has(f.uid)) continue;
    const known: ZoneKnowledge = { own: ownZone(f), page, pageVenues, pagePlace, searcherTimezone: context.searcherTimezone };
    if (!f.recurrence) {
      // A one-off's written offset may be overruled by the time its page shows (docs/decisions/events-as-data.md).
      const shown = (wall: { h: number; mi: number }) => textShowsTime(website.text, f.name, wall);
      const fact = f.recurrenceId ? { ...f, status: loneOverrideStatus(f) } : f;
      events.push(fromFact(fact, source, { ...known, shown }));
      continue;
    }
    const series = anchorOpenSeries(f, context.now);
    const clock = chooseClock(parseIsoTime(series.startAt), known);
    // A lone instance with RDATEs is read as the series they make: it overrides none of its own dates. A UID's
    // overrides belong to its one series (RFC 5545): the first component that claims it takes them, so a file
    // of a thousand series under one UID does not hand every series every override.
    const instances = f.uid ? takeOverrides(overrides, f.uid).filter((o) => o !== f) : [];
    const expansion = expandSeries(series, instances, clock, context.now, budget);
    dropped += expansion.dropped;
    if (f.recurrenceId) markLoneInstance(f, expansion.occurrences);
    // A series that cannot be read (no start, no usable rule) is its first event, as the source wrote it.
    if (expansion.occurrences.length === 0 && !parseIsoTime(f.startAt)) events.push(fromFact(f, source, known));
    // A series that is its rule alone is exported with it (docs/decisions/events-as-data.md); one whose dates the
    // rule does not say alone (excluded or changed ones, a COUNT counted from a start outside the window) is not.
    const plain = !series.recurrence?.exdates.length && instances.length === 0 && expansion.occurrences.every((o) => !o.override);
    for (const o of expansion.occurrences) events.push(occurrenceEvent(series, o, source, known, plain));
  }
  if (untitled > 0) context.onDropped?.('structured events without a title', untitled);
  if (dropped > 0) context.onDropped?.('occurrences past a series’ limit of 100 or its step bound', dropped);
  // The same event read from two formats (JSON-LD and an .ics link) is one; keys are set there.
  return mergeEventsRead([website.url], events);
}

/** The overrides of a UID, once: the series that asks first gets them, a later one of the same UID none. */
function takeOverrides(overrides: Map<string, EventFact[]>, uid: string): EventFact[] {
  const list = overrides.get(uid) ?? [];
  overrides.delete(uid);
  return list;
}

/** The zone the source named, else the venue's from its place as written, with the rule that found it. */
function ownZone(f: EventFact): ZoneKnowledge['own'] {
  if (isTimeZone(f.timezone)) return { zone: f.timezone, source: 'source' };
  if (f.online && !f.address && !f.city && !f.venue) return null;
  // The address first; a place line or venue name that names a city or country where the address does not.
  const lines = [f.address ?? placeText(f), f.place, f.venue].filter((l, i, all): l is string => !!l && all.indexOf(l) === i);
  for (const address of lines.length ? lines : [null]) {
    const zone = venueZone({ city: f.city, region: f.region, country: f.country, address });
    if (zone) return { zone, source: 'venue' };
  }
  return null;
}

const placeText = (f: EventFact) => (f.place && !ONLINE.test(f.place) ? f.place : (f.venue ?? null));

/**
 * What the page's other events say of its zone: the one zone the events that name one agree on, else the one
 * offset the events written with an offset agree on (UTC times excepted: a source that converted to UTC says
 * nothing of the venue). Null when they disagree or say nothing.
 */
function pageZone(facts: EventFact[]): ZoneKnowledge['page'] {
  const zones = new Set(facts.map((f) => f.timezone).filter(isTimeZone));
  if (zones.size === 1) return { zone: [...zones][0]! };
  if (zones.size > 1) return null;
  const offsets = new Set<number>();
  for (const f of facts) {
    for (const value of [f.startAt, f.endAt]) {
      const t = parseIsoTime(value);
      if (t && t.offset !== null && !t.utc) offsets.add(t.offset);
    }
  }
  return offsets.size === 1 ? { offset: [...offsets][0]! } : null;
}

const zoneOf = (zone: string | null) => (zone ? { zone } : null);

/** The zone all of `zones` name (at least one), or null when they name several or none. */
function agreedZone(zones: string[]): string | null {
  return zones.length > 0 && zones.every((z) => z === zones[0]) ? zones[0]! : null;
}

function fromFact(f: EventFact, source: string | null, known: ZoneKnowledge, times?: { startAt?: string; endAt?: string }): FoundEvent {
  const name = f.status === 'cancelled' ? f.name.replace(CANCELLED_SUFFIX, '') : f.name;
  const when = eventTime({ start: times ? times.startAt : f.startAt, end: times ? times.endAt : f.endAt, known });
  const venue = f.venue ?? placeText(f);
  const online = f.online ?? (f.place && ONLINE.test(f.place) ? true : null);
  return {
    key: '',
    title: cleanText(name, TITLE_MAX) ?? cleanText(f.name, TITLE_MAX) ?? 'Event',
    ...when,
    venue: cleanText(venue),
    city: cleanText(f.city),
    online,
    url: safeLink(f.url),
    source_url: source,
    status: statusFromWords(f.status, f.name),
    // Read from the page's own structured data: the source itself, nothing to check it against.
    verification: { status: 'source', source_url: source, model_starts_at: null, landing_url: null, reason: null },
  };
}

/**
 * A title that says cancelled or postponed sets the status and keeps its words (docs/decisions/events-as-data.md): cancelled in words
 * wins over any status the source wrote (a title edited to say so is the newer news); postponed only fills a
 * status the source left out.
 */
function statusFromWords(status: EventFact['status'], title: string): FoundEvent['status'] {
  const said = statusInWords(title);
  return said === 'cancelled' ? said : (status ?? said ?? 'scheduled');
}

/**
 * One occurrence of a series as its own event. Its key is the series' identity (the source's UID, else its
 * title and city) and the occurrence's original local start, so a moved occurrence keeps its key.
 */
function occurrenceEvent(series: EventFact, o: Occurrence, source: string | null, known: ZoneKnowledge, plain: boolean): FoundEvent {
  const fact = o.override ? { ...series, ...o.override, recurrence: undefined } : series;
  const event = fromFact(fact, source, o.override ? { ...known, own: ownZone(fact) ?? known.own } : known, o);
  event.status = statusFromWords(o.status, fact.name);
  const identity = series.uid ? `uid:${cleanText(series.uid, 500)}` : `event:${normaliseTitle(series.name)}|${normaliseCity(series.city)}`;
  event.key = `series:${identity}@${o.original}`;
  // Said only for one rule alone: with more rules or extra dates, its words would not be the whole series.
  const r = series.recurrence;
  if (r && !r.moreRrules?.length && !r.rdates.length) event.repeats = repeatWords(r.rrule);
  if (event.repeats && plain && event.status === 'scheduled') event.rrule = exportableRule(r!.rrule);
  return event;
}

/** The rule as a calendar may carry it from any of its occurrences: without COUNT (counted from the first), else null. */
function exportableRule(rrule: string | undefined): string | null {
  const rule = ruleOf(rrule);
  if (!rule || rule.count) return null;
  return rule.toString();
}
