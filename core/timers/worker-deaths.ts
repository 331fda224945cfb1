/**
 * A run whose worker process ended while running it (a crash, out of memory, kill -9) comes back: BullMQ finds
 * its job stalled (its lock lapsed) and hands it to a worker again, counting `stalledCounter`. A job scheduler's
 * job is never failed for stalling, so a run that ends every worker that takes it would come back forever and
 * take each worker down in turn. Twice is the limit: the third taking fails the run with one of these sentences
 * instead of running it. With a website it counts toward auto-pause like any failure of that website (reading it
 * is what can stop a worker, and a page that does so every day should not keep doing it); without one nothing the
 * person set is to blame, so it is shown as failed but never pauses their timer.
 */
export const WORKER_DEATHS_ALLOWED = 2;

/** For a timer with a website: reading it is what can stop a worker. */
export const WORKER_DIED_ERROR =
  'This run stopped the worker reading it twice, so it was not tried again. The website may be too large or malformed to read; check it, or the next run tries once more.';

/** For a timer without one: nothing the user set is to blame. */
export const WORKER_DIED_NO_WEBSITE_ERROR =
  'This run stopped the worker running it twice, so it was not tried again. The next run tries once more; if this keeps happening, try rewording the question.';

/**
 * The run's failure when its workers died too often while running it: its sentence, and whether it is the timer's
 * (its website's) to count toward auto-pause; null: run it.
 */
export function workerDeathsError(deaths: number, website: string): { error: string; cause: 'the-timer' | 'not-the-timer' } | null {
  if (deaths < WORKER_DEATHS_ALLOWED) return null;
  return website.trim()
    ? { error: WORKER_DIED_ERROR, cause: 'the-timer' }
    : { error: WORKER_DIED_NO_WEBSITE_ERROR, cause: 'not-the-timer' };
}
