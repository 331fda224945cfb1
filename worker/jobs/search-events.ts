import { type Job, UnrecoverableError } from 'bullmq';
import { searchEventsJobSchema, type SearchEventsJob } from '../../core/jobs';
import { EXTRACTION_DEADLINE_MS, type FindEventsDeps, type FoundEvents, findSearchEvents } from '../../core/search/find-events';

export type SearchEventsOutcome = FoundEvents['status'];

/**
 * Processes one `search-events` job: reads the search's id out of the job, finds its events
 * (core/search/find-events.ts) and returns how that ended. A failed final write is thrown, for BullMQ to try again.
 */
export function createSearchEventsProcessor(deps: FindEventsDeps) {
  return async (job: Job<SearchEventsJob>): Promise<SearchEventsOutcome> => {
    const data = searchEventsJobSchema.safeParse(job.data);
    if (!data.success) throw new UnrecoverableError(`Job data is not {searchId}: ${JSON.stringify(job.data)}`);
    const found = await findSearchEvents(deps, data.data.searchId, { signal: AbortSignal.timeout(EXTRACTION_DEADLINE_MS) });
    if (found.unrecorded) throw found.unrecorded;
    return found.status;
  };
}
