import { describe, expect, it } from 'vitest';
import { isCalendarDay, isRealDate } from './calendar-day';

describe('the one real-day check', () => {
  it('knows the months’ lengths and the leap years', () => {
    expect(isCalendarDay(2026, 4, 30)).toBe(true);
    expect(isCalendarDay(2026, 4, 31)).toBe(false);
    expect(isCalendarDay(2026, 2, 29)).toBe(false);
    expect(isCalendarDay(2028, 2, 29)).toBe(true);
    expect(isCalendarDay(1900, 2, 29)).toBe(false);
    expect(isCalendarDay(2000, 2, 29)).toBe(true);
    expect(isCalendarDay(2026, 12, 31)).toBe(true);
    expect(isCalendarDay(2026, 13, 1)).toBe(false);
    expect(isCalendarDay(2026, 0, 1)).toBe(false);
    expect(isCalendarDay(2026, 1, 0)).toBe(false);
    expect(isCalendarDay(2026, Number.NaN, 1)).toBe(false);
  });

  it('takes any year a source writes, and only the years events can have for a real date', () => {
    expect(isCalendarDay(26, 5, 28)).toBe(true);
    expect(isRealDate(26, 5, 28)).toBe(false);
    expect(isRealDate(1969, 12, 31)).toBe(false);
    expect(isRealDate(1970, 1, 1)).toBe(true);
    expect(isRealDate(2200, 12, 31)).toBe(true);
    expect(isRealDate(2201, 1, 1)).toBe(false);
    expect(isRealDate(2026, 2, 31)).toBe(false);
  });
});
