/** The length a limiter window aims for: short, so a rush is spread over the minute instead of front-loaded. */
const WINDOW_MS = 1000;

/**
 * BullMQ's limiter for the timers queue from TIMER_RUNS_PER_MINUTE. The limiter counts job starts in one Redis
 * key per queue, so it holds across every worker process (docs/decisions/scale-out-and-redis.md). It is a fixed
 * window: `max` starts, then nothing until `duration` ms after the window's first start. A one-minute window
 * would let the whole minute's quota start in the first instant of a 09:00 rush; windows of about a second
 * start the same number per minute evenly. `duration` is rounded up, so the long-run rate never exceeds the
 * setting (any 60 s hold at most one window's `max` more, where two windows meet).
 */
export function timerRunLimiter(perMinute: number): { max: number; duration: number } {
  const max = Math.max(1, Math.ceil((perMinute * WINDOW_MS) / 60_000));
  return { max, duration: Math.ceil((60_000 * max) / perMinute) };
}
