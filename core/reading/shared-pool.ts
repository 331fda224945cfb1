import { ReadingPool, type ReadingLimits } from './pool';

let pool: ReadingPool | null = null;

/**
 * The process's one reading pool, started at first use with these limits (the api and the worker start it at
 * start-up, so the first search finds its thread warm). A pool of threads, not state: every process has its own.
 * `threadFile`: see ReadingPool.
 */
export function readingPool(limits: ReadingLimits, threadFile?: string): ReadingPool {
  pool ??= new ReadingPool(limits, threadFile);
  return pool;
}

/** Ends the process's reading threads (graceful shutdown); a later reading starts a new pool. */
export async function closeReadingPool(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.close();
}
