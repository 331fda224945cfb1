import type { FoundEvent, UnconfirmedReason, Verification } from '../contract/event';
import type { Config } from '../config';
import { eventKey } from '../events/event-key';
import type { Source } from '../gemini/answer';
import type { Logger } from '../logger';
import { observeEventCheck } from '../metrics';
import type { RedisClient } from '../redis/client';
import { fetchWebsite, type ResolvedAddress } from '../website/fetch';
import { matchOnPage } from './match-event';
import { eventsOfSourcePage } from './read-source-page';
import { type LandingClaim, LandingPages, ReadByAnotherLink } from './landing-pages';
import { RobotsDisallowed, robotsRules } from './robots';
import { type SourceLink, pagesToRead, sourceLinksOf } from './source-links';

export interface CheckEventsDeps {
  config: Pick<Config, 'eventChecking' | 'websiteFetchAllow' | 'queuePrefix' | 'reading'>;
  /** The robots.txt cache shared by every process; without it each check reads the files it needs. */
  redis?: RedisClient;
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  logger?: Logger;
}

export interface CheckEventsInput {
  /** The search's events as collected: the model's carry no verification yet, a page's are `source`. */
  events: FoundEvent[];
  /** The answer's grounding sources, with the segments each supports. */
  sources: Source[];
  /**
   * The user's website the search read, when it had one: the model's events are checked against the events it
   * gave (those of `events` that are `source`), without another fetch.
   */
  website: string | null;
  searcherTimezone: string;
  /**
   * Whose search it is (a user's id): the pages are read in their share of the reading threads (core/reading).
   * Absent, the checks without one share a share of their own.
   */
  reader?: string;
  /** The instant the pages are read at (the anchor of their recurrence windows); now when not given. */
  now?: Date;
  signal?: AbortSignal;
}

export interface CheckedEvents {
  events: FoundEvent[];
  /** Source pages fetched and read (the user's website, read already, not counted). */
  pagesRead: number;
  /** Source pages tried that could not be read: refused, failed, or disallowed by robots.txt. */
  pagesFailed: number;
  seconds: number;
}

interface ReadPage {
  /** The page's own address, after redirects: a link's landing page. */
  url: string;
  /**
   * The address the answer cited: the event's own link, or the page a grounding redirect's first hop named
   * (the landing page when it named none).
   */
  cited: string;
  events: FoundEvent[];
}

/** Why a link gave no page: its robots.txt refused it, or it could not be fetched or read. */
type Unread = 'robots' | 'unreachable';

/**
 * Checks each of the model's events against a page it comes from (docs/decisions/checked-events.md): its own link, else the
 * grounding chunks that support it, else the answer's other chunks; at most `maxPages` pages a search, fetched
 * in parallel, each once, through the website guard and limits, every page's robots.txt respected (a grounding
 * link's first hop, Google's redirect, is not the cited site's). An event a page lists (see matchOnPage) with the
 * same start on any of its pages is `confirmed`; else, listed with another start or end on its first page that
 * lists it, it is `corrected` to that page's values (its key made from them); else `unconfirmed`, with why.
 * Never throws: a page that fails costs only the confirmation of its events.
 */
export async function checkEvents(deps: CheckEventsDeps, input: CheckEventsInput): Promise<CheckedEvents> {
  const settings = deps.config.eventChecking;
  const unchecked = input.events.filter((e) => e.verification === null);
  if (!settings || unchecked.length === 0) return { events: input.events, pagesRead: 0, pagesFailed: 0, seconds: 0 };
  const started = performance.now();
  const fetchOptions = {
    allow: deps.config.websiteFetchAllow,
    resolve: deps.resolve,
    signal: input.signal,
    userAgent: settings.userAgent,
  };
  const robots = robotsRules({ redis: deps.redis, prefix: deps.config.queuePrefix, fetch: fetchOptions });
  const now = input.now ?? new Date();
  const website = input.website
    ? { url: input.website, cited: input.website, events: input.events.filter((e) => e.verification?.status === 'source') }
    : null;

  const candidates = new Map<FoundEvent, SourceLink[]>();
  for (const e of unchecked) {
    const links = website ? [{ url: website.url, grounding: false }, ...sourceLinksOf(e, [])] : sourceLinksOf(e, input.sources);
    candidates.set(e, links);
  }
  const toFetch = pagesToRead(
    [...candidates.values()].map((links) => links.filter((l) => l.url !== website?.url)),
    settings.maxPages,
  );
  const counts = { read: 0, failed: 0, robots: 0 };
  const pages = new Map<string, ReadPage | Unread>();
  if (website) pages.set(website.url, website);
  const landings = new LandingPages<ReadPage>();
  const read = await Promise.all(
    toFetch.map(async (link): Promise<ReadPage | Unread> => {
      const claims: LandingClaim<ReadPage>[] = [];
      let cited: string | undefined = link.grounding ? undefined : link.url;
      try {
        const page = await fetchWebsite(link.url, {
          ...fetchOptions,
          // A grounding redirect is Google's, followed once to reach the page it cites; that page and every hop
          // after it are fetched only when their site's robots.txt allows it, and only by the first of the links
          // that lead to it.
          beforeHop: async (url, hop) => {
            if (link.grounding && hop === 0) return;
            cited ??= url.href;
            claims.push(landings.claim(url.href));
            await robots.check(url);
          },
        });
        const events = await eventsOfSourcePage(
          page,
          { searcherTimezone: input.searcherTimezone, now },
          deps.config.reading,
          input.reader ?? 'event checks',
        );
        counts.read++;
        const result: ReadPage = { url: page.url, cited: cited ?? page.url, events };
        for (const claim of claims) claim.settle(result);
        return result;
      } catch (err) {
        for (const claim of claims) claim.settle(null);
        if (err instanceof ReadByAnotherLink) {
          const other = (await err.page) as ReadPage | null;
          // The same page, as this link cited it.
          return other ? { ...other, cited: cited ?? other.cited } : 'unreachable';
        }
        deps.logger?.debug({ err: (err as Error).message }, 'a source page could not be read to check events');
        if (err instanceof RobotsDisallowed) {
          counts.robots++;
          return 'robots';
        }
        counts.failed++;
        return 'unreachable';
      }
    }),
  );
  toFetch.forEach((link, i) => {
    pages.set(link.url, read[i]!);
  });

  const events = input.events.map((e) => {
    const links = candidates.get(e);
    return links ? checked(e, links, pages, website?.url ?? null) : e;
  });
  const seconds = (performance.now() - started) / 1000;
  observeEventCheck(
    seconds,
    counts,
    unchecked.map((e) => events[input.events.indexOf(e)]!.verification!.status),
  );
  return { events, pagesRead: counts.read, pagesFailed: counts.failed + counts.robots, seconds };
}

/** The site of an address, as people name it (its host without "www."). */
const siteOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
};

/**
 * Where a page's check is said to come from: the address the answer cited, and the page read beside it when the
 * link led to another site. A link that stays on its site names the page it reached.
 */
function checkedOn(page: ReadPage): Pick<Verification, 'source_url' | 'landing_url'> {
  return siteOf(page.cited) === siteOf(page.url)
    ? { source_url: page.url, landing_url: null }
    : { source_url: page.cited, landing_url: page.url };
}

/**
 * What a page that gives the event as an occurrence of a series says of it: how it repeats, and, for a series
 * that is its rule alone, the rule and the occurrence's key (its series' identity), so the event is shown and
 * exported as that series (core/events/series-card.ts).
 */
function seriesOf(page: FoundEvent): Pick<FoundEvent, 'repeats' | 'rrule'> & { key?: string } {
  if (!page.repeats) return {};
  return page.rrule && page.key.startsWith('series:')
    ? { repeats: page.repeats, rrule: page.rrule, key: page.key }
    : { repeats: page.repeats };
}

/** One model event against the pages read for it, in the order of its links. */
function checked(e: FoundEvent, links: SourceLink[], pages: Map<string, ReadPage | Unread>, pageRead: string | null): FoundEvent {
  const outcomes = links.map((link) => pages.get(link.url)).filter((p) => p !== undefined);
  const read = outcomes.filter((p): p is ReadPage => typeof p !== 'string');
  const matches = read.map((page) => ({ page, match: matchOnPage(e, page.events) }));
  // Any page that agrees confirms; only when none does, the first page that lists it corrects.
  const agreeing = matches.find((m) => m.match?.agrees);
  if (agreeing) {
    const on = checkedOn(agreeing.page);
    const verification: Verification = { status: 'confirmed', ...on, model_starts_at: null, reason: null };
    return {
      ...e,
      ends_at: e.ends_at ?? agreeing.match!.event.ends_at,
      source_url: on.source_url,
      verification,
      ...seriesOf(agreeing.match!.event),
    };
  }
  const listing = matches.find((m) => m.match !== null);
  if (listing) {
    const match = listing.match!.event;
    const on = checkedOn(listing.page);
    // The model's stated repeat was checked against the start the page contradicts: only the page's own series stays.
    const { repeats: _repeats, rrule: _rrule, ...model } = e;
    const corrected: FoundEvent = {
      ...model,
      starts_at: match.starts_at,
      ends_at: match.ends_at,
      all_day: match.all_day,
      timezone: match.timezone,
      timezone_source: match.timezone_source,
      source_url: on.source_url,
      verification: { status: 'corrected', ...on, model_starts_at: e.starts_at, reason: null },
    };
    // One identity from the corrected values: the next run, corrected the same way, finds the same key.
    corrected.key = eventKey(corrected, pageRead);
    return { ...corrected, ...seriesOf(match) };
  }
  return {
    ...e,
    verification: { status: 'unconfirmed', source_url: null, model_starts_at: null, landing_url: null, reason: whyNot(read, outcomes) },
  };
}

/**
 * Why no page confirmed an event: a page that gives events as data and not this one says it does not list it; a
 * page read with no events as data (its events in text only) says nothing either way.
 */
function whyNot(read: ReadPage[], outcomes: (ReadPage | Unread)[]): UnconfirmedReason {
  if (read.some((page) => page.events.length > 0)) return 'not_listed';
  if (read.length > 0) return 'no_event_data';
  return outcomes.includes('robots') ? 'robots' : outcomes.length > 0 ? 'unreachable' : 'no_page';
}
