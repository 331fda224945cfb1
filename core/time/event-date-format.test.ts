import { describe, expect, it } from 'vitest';
import { formatEventMoment, formatShortMoment } from './event-date-format';

describe('a moment, whole and short', () => {
  const at = new Date('2026-11-24T13:23:00Z');

  it("is the same moment and clock without weekday and year, in the reader's locale and zone", () => {
    expect(formatEventMoment(at, 'Europe/Berlin', 'en-GB')).toBe('Tue, 24 Nov 2026, 14:23');
    expect(formatShortMoment(at, 'Europe/Berlin', 'en-GB')).toBe('24 Nov, 14:23');
    // The space before AM is a narrow no-break one in newer ICU data.
    expect(formatShortMoment(at, 'America/New_York', 'en-US')).toMatch(/^Nov 24, 8:23\sAM$/);
    expect(formatShortMoment(new Date('2026-11-24T08:05:00Z'), 'UTC', 'en-GB')).toBe('24 Nov, 08:05');
  });
});
