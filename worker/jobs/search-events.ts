import type { GoogleGenAI } from '@google/genai';
import type { Job } from 'bullmq';
import type { Config } from '../../core/config';
import type { SearchEventsJob } from '../../core/jobs';
import type { Logger } from '../../core/logger';
import type { RedisClient } from '../../core/redis/client';
import { eventsOfAnsweredSearch } from '../../core/search/record-events';
import type { Sql } from '../../db/client';
import { finishSearchEvents } from '../../db/searches';

/** The extraction call of one search may take this long; past it the search keeps the website's events only. */
export const EXTRACTION_DEADLINE_MS = 120_000;

export interface SearchEventsDeps {
  sql: Sql;
  gemini: GoogleGenAI;
  config: Pick<Config, 'gemini' | 'eventChecking' | 'websiteFetchAllow' | 'queuePrefix' | 'reading'>;
  logger: Logger;
  /** The robots.txt cache of the event check (core/verification). */
  redis?: RedisClient;
}

export type SearchEventsOutcome = 'done' | 'failed' | 'already-ended';

/**
 * Processes one `search-events` job: collects the answered ask's events (the website's facts and the model's
 * extraction, unless the answer names only the website's), stores them, then ends the search's `events_status`
 * with the extraction call's usage in the same write. A failed extraction keeps the website's events and ends
 * 'failed'; only a failed final write is thrown, for BullMQ to try the job again.
 */
export function createSearchEventsProcessor(deps: SearchEventsDeps) {
  return async (job: Job<SearchEventsJob>): Promise<SearchEventsOutcome> => {
    const s = job.data;
    const found = await eventsOfAnsweredSearch(deps, {
      searchId: s.searchId,
      userId: s.userId,
      timezone: s.timezone,
      filters: s.filters,
      prepared: s.prepared,
      result: s.result,
      signal: AbortSignal.timeout(EXTRACTION_DEADLINE_MS),
    });
    const status = found.failed ? 'failed' : 'done';
    const ended = await finishSearchEvents(deps.sql, s.searchId, { status, calls: found.extraction ? [found.extraction] : [] });
    if (!ended) return 'already-ended';
    if (found.failed) deps.logger.warn({ searchId: s.searchId, events: found.events.length }, 'the events of a search were found in part');
    return status;
  };
}
