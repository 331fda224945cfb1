import type { FoundEvent } from '../contract/event';
import { eventsFromFacts } from '../events/from-facts';
import { extractFacts } from '../website/extract';
import type { WebsitePage } from '../website/fetch';

/**
 * The one place a fetched source page becomes events: the reader that reads a user's website (one parse, each
 * format by its own extractor), then facts → events as for the website. A reader that runs elsewhere (a pool of
 * sandboxed parsers) replaces this body and nothing else.
 */
export async function eventsOfSourcePage(page: WebsitePage, context: { searcherTimezone: string; now: Date }): Promise<FoundEvent[]> {
  return eventsFromFacts(extractFacts(page), context);
}
