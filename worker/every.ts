import type { Logger } from '../core/logger';

/**
 * Runs `pass` every `ms` (0: never) until the returned stop is called. A failed pass is logged and the next
 * one tries again; the timer does not hold the process open.
 */
export function every(ms: number, pass: () => Promise<unknown>, logger: Logger, what: string): () => void {
  if (ms <= 0) return () => {};
  const interval = setInterval(() => {
    pass().catch((err) => logger.warn({ err: (err as Error).message }, `${what} failed; retrying later`));
  }, ms);
  interval.unref();
  return () => clearInterval(interval);
}
