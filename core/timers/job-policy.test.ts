import { defaultRepeatStrategy } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { RUN_BACKOFF_MS, TIMER_BACKOFF, timerBackoffStrategy, timerRepeatStrategy } from './job-policy';

describe('timer job policy', () => {
  it("backs off as BullMQ's exponential backoff with RUN_BACKOFF_MS does: 30 s, 60 s, 120 s", () => {
    expect([1, 2, 3].map((n) => timerBackoffStrategy(n, TIMER_BACKOFF))).toEqual([RUN_BACKOFF_MS, 2 * RUN_BACKOFF_MS, 4 * RUN_BACKOFF_MS]);
    expect(() => timerBackoffStrategy(1, 'linear')).toThrow(/Unknown backoff type/);
  });

  // Spring forward and fall back in Berlin and New York, midnight, a fire instant itself and the ms around it.
  const instants = [
    Date.UTC(2026, 2, 29, 0, 59, 59, 999),
    Date.UTC(2026, 2, 29, 1, 30),
    Date.UTC(2026, 9, 25, 0, 30),
    Date.UTC(2026, 9, 25, 1, 0, 0, 1),
    Date.UTC(2026, 2, 8, 7, 0),
    Date.UTC(2026, 10, 1, 5, 59, 59, 999),
    Date.UTC(2026, 10, 23, 8, 0),
    Date.UTC(2026, 10, 23, 8, 0, 0, 1),
    Date.UTC(2026, 10, 23, 7, 59, 30),
  ];
  const schedules = [
    { pattern: '30 2 * * *', tz: 'Europe/Berlin' },
    { pattern: '0 9 * * 3', tz: 'Europe/Berlin' },
    { pattern: '0 3 * * *', tz: 'America/New_York' },
    { pattern: '0 8 * * *', tz: 'UTC' },
    { pattern: '45 23 * * 0', tz: 'Asia/Kolkata' },
  ];

  it("computes every next fire exactly as BullMQ's own cron strategy", () => {
    for (const s of schedules) {
      for (const at of instants)
        expect(timerRepeatStrategy(at, s), `${s.pattern} ${s.tz} after ${new Date(at).toISOString()}`).toBe(defaultRepeatStrategy(at, s));
    }
  });

  it('leaves schedules it does not make to BullMQ (every, start and end dates)', () => {
    const at = Date.UTC(2026, 10, 23, 8, 0);
    const endDate = Date.UTC(2026, 10, 23, 9, 0);
    expect(timerRepeatStrategy(at, { pattern: '0 9 * * *', tz: 'UTC', endDate })).toBe(
      defaultRepeatStrategy(at, { pattern: '0 9 * * *', tz: 'UTC', endDate }),
    );
    expect(timerRepeatStrategy(at, { pattern: '0 9 * * *' })).toBe(defaultRepeatStrategy(at, { pattern: '0 9 * * *' }));
  });
});
