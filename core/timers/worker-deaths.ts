/**
 * A run whose worker process ended while running it (a crash, out of memory, kill -9) comes back: BullMQ finds
 * its job stalled (its lock lapsed) and hands it to a worker again, counting `stalledCounter`. A job scheduler's
 * job is never failed for stalling, so a run that ends every worker that takes it would come back forever and
 * take each worker down in turn. Twice is the limit: the third taking fails the run with this sentence instead
 * of running it, counted like any failure of the timer's own website (auto-pause).
 */
export const WORKER_DEATHS_ALLOWED = 2;

export const WORKER_DIED_ERROR =
  'This run stopped the worker reading it twice, so it was not tried again. The website may be too large or malformed to read; check it, or the next run tries once more.';

/** The run's failure sentence when its workers died too often while running it; null: run it. */
export function workerDeathsError(deaths: number): string | null {
  return deaths >= WORKER_DEATHS_ALLOWED ? WORKER_DIED_ERROR : null;
}
