import type { FoundEvent } from '../contract/event';
import { distinctFactLinks } from '../events/answer-coverage';
import { eventsFromFacts } from '../events/from-facts';
import { promptEvents } from '../search/prompt';
import { sameSite } from '../website/calendar-links';
import { extractFacts, type WebsiteFacts, withSinkCounts } from '../website/extract';
import { FactSink } from '../website/fact-sink';
import type { WebsitePage } from '../website/fetch';
import { eventsFromIcal } from '../website/ical';
import { isCalendar } from '../website/page-kind';
import { ZoneWork } from '../website/zone-work';

/** How many calendars a page names that one reading follows. */
export const MAX_CALENDAR_LINKS = 3;

/** Who reads, and when: the searcher's zone (the last resort for a venue's) and the recurrence window's anchor. */
export interface ReadingContext {
  searcherTimezone: string;
  /** Epoch milliseconds (a Date crosses the thread boundary as one, but a number says so). */
  now: number;
}

/**
 * One step of a reading, as it crosses into the reading thread: plain data only (a page's body crosses as bytes).
 * `page`: the fetched page, whose same-site calendars may still have to be fetched. `calendars`: the page's facts
 * from the first step and the calendars fetched for it, read into the same bound.
 */
export type ReadingStep = PageStep | { kind: 'calendars'; facts: WebsiteFacts; calendars: LinkedCalendar[]; context: ReadingContext };

export type PageStep = { kind: 'page'; page: WebsitePage; context: ReadingContext };

/** A calendar the page links, as the link named it, and what fetching it gave. */
export interface LinkedCalendar {
  link: string;
  page: WebsitePage;
}

/** What was left out of the events and why, to be logged where the reading was asked for. */
export interface LeftOut {
  what: string;
  count: number;
}

/**
 * What a step gives back. `follow`: same-site calendar links the main thread is to fetch, then send back as a
 * `calendars` step; while it is not empty, `events` is empty (the calendars' events join the page's first).
 */
export interface StepResult {
  facts: WebsiteFacts;
  follow: string[];
  events: FoundEvent[];
  leftOut: LeftOut[];
}

/**
 * The untrusted part of reading a website: the page's facts (every format), then its linked calendars', then
 * facts → events. Synchronous and CPU-bound: it runs in the reading thread (./thread.ts), never on a
 * process's main thread, where the pool's limits can stop it from outside.
 */
export function readStep(step: ReadingStep): StepResult {
  if (step.kind === 'page') return pageResult(step, extractFacts(step.page));
  const sink = new FactSink();
  // The page's facts count against the same bound as its calendars', as when both were read in one go.
  for (const fact of step.facts.events) sink.add(fact);
  sink.dropped += step.facts.droppedEvents ?? 0;
  sink.unreadable += step.facts.unreadableEvents ?? 0;
  const read: string[] = [];
  // The calendars read together share one bound of zone work, as they share the bound of facts.
  const zoneWork = new ZoneWork();
  for (const { link, page } of step.calendars) {
    if (!isCalendar(page.contentType, page.body)) continue;
    eventsFromIcal(page.body, { baseUrl: page.url, sink, zoneWork });
    read.push(link);
  }
  const facts = withSinkCounts({ ...step.facts, events: sink.events, ...(read.length > 0 ? { calendarsRead: read } : {}) }, sink);
  return { facts, follow: [], ...toEvents(facts, step.context) };
}

/** A page's facts, then its same-site calendars to follow, or else its events. */
function pageResult(step: PageStep, facts: WebsiteFacts): StepResult {
  const follow = (facts.calendarLinks ?? [])
    .filter((link) => link !== step.page.url && sameSite(link, step.page.url))
    .slice(0, MAX_CALENDAR_LINKS);
  if (follow.length > 0) return { facts, follow, events: [], leftOut: [] };
  return { facts, follow, ...toEvents(facts, step.context) };
}

function toEvents(facts: WebsiteFacts, context: ReadingContext): Pick<StepResult, 'events' | 'leftOut'> {
  const leftOut: LeftOut[] = [];
  const events = eventsFromFacts(facts, {
    searcherTimezone: context.searcherTimezone,
    now: new Date(context.now),
    onDropped: (what, count) => leftOut.push({ what, count }),
  });
  return { events, leftOut };
}

/**
 * A finished reading as the main thread gets it: its events, and of its facts only those the prompt lists, the
 * others counted and their links kept (for telling the website's own links from others'). A 2 MB page's
 * thousands of facts cost the main thread tens of milliseconds to receive, and it lists 50 of them. A step
 * with calendars still to follow keeps every fact: they go back into the thread with the calendars.
 */
export function listedForTheMainThread(result: StepResult, context: ReadingContext): StepResult {
  if (result.follow.length > 0) return result;
  const all = result.facts.events;
  const listed = promptEvents(all, new Date(context.now));
  if (listed.length === all.length) return result;
  const kept = new Set(listed);
  const unlistedLinks = distinctFactLinks(all.filter((fact) => !kept.has(fact)));
  const facts = { ...result.facts, events: listed, unlistedEvents: all.length - listed.length, unlistedLinks };
  return { ...result, facts };
}
