import type { Job } from 'bullmq';
import { type AskEventsDeps, type AskEventsOutcome, findAskEvents } from '../../core/search/ask-events';
import type { SearchEventsJob } from '../../core/jobs';

/**
 * Processes one `search-events` job: hands the answered ask it carries to core/search/ask-events.ts and returns
 * how it ended. A thrown error (the final write failed) is BullMQ's to try again.
 */
export function createSearchEventsProcessor(deps: AskEventsDeps) {
  return (job: Job<SearchEventsJob>): Promise<AskEventsOutcome> => findAskEvents(deps, job.data);
}
