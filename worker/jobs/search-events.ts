import type { Job } from 'bullmq';
import { type AskEventsDeps, type AskEventsOutcome, findAskEvents } from '../../core/search/ask-events';
import type { SearchEventsJob } from '../../core/jobs';

export type SearchEventsDeps = AskEventsDeps;
export type SearchEventsOutcome = AskEventsOutcome;

/**
 * Processes one `search-events` job: hands the answered ask it carries to core/search/ask-events.ts and returns
 * how it ended. A thrown error (the final write failed) is BullMQ's to try again.
 */
export function createSearchEventsProcessor(deps: SearchEventsDeps) {
  return (job: Job<SearchEventsJob>): Promise<SearchEventsOutcome> => findAskEvents(deps, job.data);
}
