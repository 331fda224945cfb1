import type { Job } from 'bullmq';

/** A run-timer job as one added by hand (Bull Board, a test, a benchmark) carries it: its one fire is `at`. */
export function manualFireJob(timerId: number, at: number, id = `manual:${timerId}`): Job<{ timerId: number }> {
  const job = { id, data: { timerId }, opts: { prevMillis: at, attempts: 1 }, attemptsMade: 0, timestamp: at };
  return job as unknown as Job<{ timerId: number }>;
}
