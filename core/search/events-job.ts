import type { Queue } from 'bullmq';
import { SEARCH_EVENTS_JOB, type SearchEventsJob } from '../jobs';
import type { PreparedSearch, SearchResult } from './index';

/**
 * What finding an answered search's events reads, as the answer left it: kept beside the search while its events
 * are pending (db/searches.ts `events_input`), so the job that finds them carries the search's id only. JSON only;
 * bounded by the prompt's and the website reading's own bounds.
 */
export interface SearchEventsInput {
  timezone: string;
  prepared: PreparedSearch;
  result: Pick<SearchResult, 'answer' | 'model' | 'sources' | 'answeredEvents'>;
}

/** The input of an answered search: the answer's own fields only, not its usage or suggestions (stored already). */
export function eventsInputOf(timezone: string, prepared: PreparedSearch, result: SearchResult): SearchEventsInput {
  const { answer, model, sources, answeredEvents } = result;
  return { timezone, prepared, result: { answer, model, sources, answeredEvents } };
}

/** Keeps the last few failed jobs for a look in Bull Board; a finished one has nothing left to say. */
const KEEP_FAILED = 100;

/**
 * Adds the job of an answered search, once: it carries the search's id (the worker reads the rest from Postgres),
 * and its job id is the search's, so a second add of the same search is a no-op. A job whose final write failed is
 * tried again (the write only changes a still-pending search).
 */
export async function queueSearchEvents(queue: Queue<SearchEventsJob>, searchId: number): Promise<void> {
  await queue.add(
    SEARCH_EVENTS_JOB,
    { searchId },
    {
      jobId: `search-${searchId}`,
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: true,
      removeOnFail: KEEP_FAILED,
    },
  );
}
