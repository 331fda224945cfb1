import type { Queue } from 'bullmq';
import type { TimerFilters } from '../contract/timer-filters';
import { SEARCH_EVENTS_JOB } from '../jobs';
import type { PreparedSearch, SearchResult } from './index';

/**
 * What finding an answered ask's events needs, carried by its job on the `search-events` queue (core/jobs.ts):
 * everything the extraction reads, as the answer left it. JSON only (BullMQ stores it as such); bounded by the
 * prompt's and the website reading's own bounds.
 */
export interface SearchEventsJob {
  searchId: number;
  userId: number;
  timezone: string;
  filters: TimerFilters | null;
  prepared: PreparedSearch;
  result: Pick<SearchResult, 'answer' | 'model' | 'sources' | 'answeredEvents'>;
}

/** The job of an answered search: the answer's own fields only, not its usage or suggestions (already stored). */
export function searchEventsJob(
  s: Pick<SearchEventsJob, 'searchId' | 'userId' | 'timezone' | 'filters' | 'prepared'>,
  result: SearchResult,
): SearchEventsJob {
  const { answer, model, sources, answeredEvents } = result;
  return { ...s, result: { answer, model, sources, answeredEvents } };
}

/** Keeps the last few failed jobs for a look in Bull Board; a finished one has nothing left to say. */
const KEEP_FAILED = 100;

/**
 * Adds the job of an answered search, once: its id is the search's, so a second add of the same search is a
 * no-op. A job whose final write failed is tried again (the write only changes a still-pending search).
 */
export async function queueSearchEvents(queue: Queue<SearchEventsJob>, job: SearchEventsJob): Promise<void> {
  await queue.add(SEARCH_EVENTS_JOB, job, {
    jobId: `search-${job.searchId}`,
    attempts: 3,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: true,
    removeOnFail: KEEP_FAILED,
  });
}
