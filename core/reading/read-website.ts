import type { FoundEvent } from '../contract/event';
import type { Logger } from '../logger';
import { countReadingOverLimit, readingInFlight } from '../metrics';
import { SearchError } from '../search-error';
import type { WebsiteFacts } from '../website/extract';
import { fetchWebsite, type WebsiteFetchOptions } from '../website/fetch';
import { type ReadingPool, type ReadingLimit, ReadingOverLimit } from './pool';
import type { LeftOut, LinkedCalendar, ReadingContext, StepResult } from './read-pages';

/**
 * A website as read: its facts (for the prompt), its own events as contract events, read at the search's time
 * and zone, and what was left out of them. `overLimit`: the reading was stopped at a limit, and the facts and
 * events are empty.
 */
export interface WebsiteReading extends WebsiteFacts {
  found: FoundEvent[];
  leftOut: LeftOut[];
  overLimit?: ReadingLimit;
}

export interface ReadWebsiteOptions extends WebsiteFetchOptions {
  pool: ReadingPool;
  /** Whose reading it is (a user's id): a user's readings wait behind their own (see ReadingPool). */
  reader: string;
  context: ReadingContext;
  logger?: Logger;
}

/**
 * Reads a user's website: the page through the address guard, its facts, then up to three same-site
 * calendars it links (.ics, webcal:), each fetched through the same guard, size and time limits, their
 * events added to the page's under the same bound. The fetches run here; every parse runs in the reading pool,
 * whose limits (time, heap, output) stop a hostile page without stopping the process: such a reading is
 * logged with the page's host, counted, and comes back empty with `overLimit` set; so does a reading whose time
 * (counted from its queueing) ran out while it waited for a thread. A calendar link that fails or is not a
 * calendar costs nothing but its fetch. Throws only for the page itself and for a reading refused because too
 * many wait (SearchError).
 */
export async function readWebsite(raw: string, options: ReadWebsiteOptions): Promise<WebsiteReading> {
  const { pool, context, signal, reader } = options;
  const page = await fetchWebsite(raw, options);
  const started = performance.now();
  readingInFlight(1);
  try {
    const first = await pool.run({ kind: 'page', page, context }, pool.limits.timeLimitMs, { reader, signal });
    const pageTime = performance.now() - started;
    if (first.follow.length === 0) return reading(first);
    const fetched = await Promise.allSettled(first.follow.map((link) => fetchWebsite(link, options)));
    // A cancelled search is not a calendar that failed: it ends the reading as it would have ended the page's.
    for (const result of fetched) {
      if (result.status === 'rejected' && result.reason instanceof SearchError && result.reason.code === 'aborted') throw result.reason;
    }
    const calendars: LinkedCalendar[] = [];
    fetched.forEach((result, i) => {
      if (result.status === 'fulfilled') calendars.push({ link: first.follow[i]!, page: result.value });
    });
    // The calendars' fetch is the network's time, not the reading's: only the page's step counts against it.
    const second = await pool.run({ kind: 'calendars', facts: first.facts, calendars, context }, pool.limits.timeLimitMs - pageTime, {
      reader,
      signal,
    });
    return reading(second);
  } catch (err) {
    if (err instanceof SearchError && err.code === 'reading_busy') {
      countReadingOverLimit('queue');
      options.logger?.warn({ host: new URL(page.url).host, reader }, 'a website reading was refused: too many readings wait');
    }
    if (!(err instanceof ReadingOverLimit)) throw err;
    const host = new URL(page.url).host;
    countReadingOverLimit(err.limit);
    options.logger?.warn(
      { host, limit: err.limit, detail: err.message },
      'a website reading was stopped at its limit; its events are left out',
    );
    return { url: page.url, events: [], text: '', found: [], leftOut: [], overLimit: err.limit };
  } finally {
    readingInFlight(-1);
  }
}

function reading(step: StepResult): WebsiteReading {
  return { ...step.facts, found: step.events, leftOut: step.leftOut };
}
