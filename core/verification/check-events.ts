import type { FoundEvent, Verification } from '../contract/event';
import type { Config } from '../config';
import { eventKey } from '../events/event-key';
import type { Source } from '../gemini/answer';
import type { Logger } from '../logger';
import { observeEventCheck } from '../metrics';
import type { RedisClient } from '../redis/client';
import { fetchWebsite, type ResolvedAddress } from '../website/fetch';
import { matchOnPage, pageAgrees } from './match-event';
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
  /** The page's own address, after redirects: a grounding link's landing page. */
  url: string;
  events: FoundEvent[];
}

/**
 * Checks each of the model's events against a page it comes from (docs/decisions/checked-events.md): its own link, else the
 * grounding chunks that support it, else the answer's other chunks; at most `maxPages` pages a search, fetched
 * in parallel, each once, through the website guard and limits, robots.txt respected. An event a page lists
 * with the same start is `confirmed`; with another start or end it is `corrected` to the page's values (its
 * key made from them); an event no read page lists is `unconfirmed`. Never throws: a page that fails costs
 * only the confirmation of its events.
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
  const website = input.website ? { url: input.website, events: input.events.filter((e) => e.verification?.status === 'source') } : null;

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
  const pages = new Map<string, ReadPage | null>();
  if (website) pages.set(website.url, website);
  const landings = new LandingPages<ReadPage>();
  const read = await Promise.all(
    toFetch.map(async (link): Promise<ReadPage | null> => {
      const claims: LandingClaim<ReadPage>[] = [];
      try {
        const page = await fetchWebsite(link.url, {
          ...fetchOptions,
          // A grounding link is Google's redirect to the page it cites, followed once to reach it; the landing
          // page and every hop after it are fetched only when their site's robots.txt allows it, and only by the
          // first of the links that lead to it.
          beforeHop: async (url, hop) => {
            if (link.grounding && hop === 0) return;
            claims.push(landings.claim(url.href));
            await robots.check(url);
          },
        });
        const events = await eventsOfSourcePage(page, { searcherTimezone: input.searcherTimezone, now }, deps.config.reading);
        counts.read++;
        const result: ReadPage = { url: page.url, events };
        for (const claim of claims) claim.settle(result);
        return result;
      } catch (err) {
        for (const claim of claims) claim.settle(null);
        if (err instanceof ReadByAnotherLink) return (await err.page) as ReadPage | null;
        if (err instanceof RobotsDisallowed) counts.robots++;
        else counts.failed++;
        deps.logger?.debug({ err: (err as Error).message }, 'a source page could not be read to check events');
        return null;
      }
    }),
  );
  toFetch.forEach((link, i) => {
    pages.set(link.url, read[i] ?? null);
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

/** One model event against the pages read for it, in the order of its links. */
function checked(e: FoundEvent, links: SourceLink[], pages: Map<string, ReadPage | null>, pageRead: string | null): FoundEvent {
  for (const link of links) {
    const page = pages.get(link.url);
    if (!page) continue;
    const match = matchOnPage(e, page.events);
    if (!match) continue;
    if (pageAgrees(e, match)) {
      const verification: Verification = { status: 'confirmed', source_url: page.url, model_starts_at: null };
      return { ...e, ends_at: e.ends_at ?? match.ends_at, source_url: page.url, verification };
    }
    const corrected: FoundEvent = {
      ...e,
      starts_at: match.starts_at,
      ends_at: match.ends_at,
      all_day: match.all_day,
      timezone: match.timezone,
      timezone_source: match.timezone_source,
      source_url: page.url,
      verification: { status: 'corrected', source_url: page.url, model_starts_at: e.starts_at },
    };
    // One identity from the corrected values: the next run, corrected the same way, finds the same key.
    corrected.key = eventKey(corrected, pageRead);
    return corrected;
  }
  return { ...e, verification: { status: 'unconfirmed', source_url: null, model_starts_at: null } };
}
