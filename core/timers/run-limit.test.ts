import { describe, expect, it } from 'vitest';
import { timerRunLimiter } from './run-limit';

describe('timerRunLimiter', () => {
  it.each([
    [120, { max: 2, duration: 1000 }],
    [600, { max: 10, duration: 1000 }],
    [100, { max: 2, duration: 1200 }],
    [30, { max: 1, duration: 2000 }],
    [1, { max: 1, duration: 60_000 }],
  ])('%i per minute → %o', (perMinute, expected) => {
    expect(timerRunLimiter(perMinute)).toEqual(expected);
  });

  it('never allows more than the setting per minute in the long run, with windows of about a second', () => {
    for (let perMinute = 1; perMinute <= 100_000; perMinute += perMinute < 200 ? 1 : 997) {
      const { max, duration } = timerRunLimiter(perMinute);
      expect((max * 60_000) / duration).toBeLessThanOrEqual(perMinute);
      // Rounding the window up by under a millisecond costs well under 1% of the rate.
      expect((max * 60_000) / duration).toBeGreaterThan(perMinute * 0.99);
      if (perMinute >= 60) expect(duration).toBeLessThan(2000);
    }
  });
});
