import { Worker } from 'bullmq';
import type { Config } from '../core/config';
import { SEARCH_EVENTS_QUEUE, type SearchEventsJob } from '../core/jobs';
import type { Logger } from '../core/logger';
import type { RedisClient } from '../core/redis/client';
import type { FindEventsDeps } from '../core/search/find-events';
import { createSearchEventsProcessor, type SearchEventsOutcome } from './jobs/search-events';

/**
 * Jobs at once per worker process: each is mostly a wait on Gemini's extraction reply, so a few run side by side
 * without holding a timer run's slot (the timers queue has its own worker and concurrency).
 */
const CONCURRENCY = 8;

export interface SearchEventsWorkerDeps extends FindEventsDeps {
  config: Config;
  connection: RedisClient;
  logger: Logger;
}

export interface SearchEventsWorker {
  worker: Worker<SearchEventsJob, SearchEventsOutcome>;
  close: (force?: boolean) => Promise<void>;
}

/** Starts the BullMQ worker of the `search-events` queue: an ask's events, found after its reply (docs/decisions/ask.md). */
export async function startSearchEventsWorker(deps: SearchEventsWorkerDeps): Promise<SearchEventsWorker> {
  const { config, connection, logger } = deps;
  const worker = new Worker<SearchEventsJob, SearchEventsOutcome>(SEARCH_EVENTS_QUEUE, createSearchEventsProcessor(deps), {
    connection,
    prefix: config.queuePrefix,
    concurrency: CONCURRENCY,
  });
  worker.on('failed', (job, err) => logger.warn({ jobId: job?.id, err: err.message }, 'search events job failed'));
  worker.on('error', (err) => logger.error({ err: err.message }, 'search events worker error'));
  await worker.waitUntilReady();
  logger.info('search events worker ready');
  return { worker, close: (force = false) => worker.close(force) };
}
