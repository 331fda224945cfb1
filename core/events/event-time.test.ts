import { describe, expect, it } from 'vitest';
import { eventTime, sameStart } from './event-time';
import { isoInZone, offsetMinutes, wallTimeToEpoch } from './zoned-time';

const t = (start: string | null, timezone: string | null = null, userTimezone = 'Europe/Berlin', end: string | null = null) =>
  eventTime({ start, end, timezone, userTimezone });

describe('event times', () => {
  it('keeps an explicit offset as the local time', () => {
    expect(t('2026-06-18T09:00:00+02:00')).toEqual({
      starts_at: '2026-06-18T09:00:00+02:00',
      ends_at: null,
      all_day: false,
      timezone: null,
    });
    expect(t('2026-06-18T09:00-0400', null, 'UTC').starts_at).toBe('2026-06-18T09:00:00-04:00');
  });

  it('shows a UTC time in the event zone, else the user zone, so the local date matches', () => {
    // 22:30 UTC on the 17th is 00:30 on the 18th in Berlin: the same local day the website states.
    expect(t('2026-06-17T22:30:00Z').starts_at).toBe('2026-06-18T00:30:00+02:00');
    expect(t('2026-06-17T22:30:00Z', 'America/New_York').starts_at).toBe('2026-06-17T18:30:00-04:00');
  });

  it('reads a floating time in the named zone (iCalendar TZID), across DST', () => {
    expect(t('2026-06-09T18:30:00', 'Europe/Berlin', 'UTC')).toMatchObject({
      starts_at: '2026-06-09T18:30:00+02:00',
      timezone: 'Europe/Berlin',
    });
    expect(t('2026-01-09T18:30:00', 'Europe/Berlin', 'UTC').starts_at).toBe('2026-01-09T18:30:00+01:00');
    expect(t('2026-06-09T18:30:00', 'Not/AZone', 'Asia/Tokyo')).toMatchObject({ starts_at: '2026-06-09T18:30:00+09:00', timezone: null });
  });

  it('keeps dates as all-day, and drops ends before starts and unreadable values', () => {
    expect(t('2026-07-01', null, 'UTC', '2026-07-02')).toEqual({
      starts_at: '2026-07-01',
      ends_at: '2026-07-02',
      all_day: true,
      timezone: null,
    });
    expect(t('2026-07-01T10:00:00Z', null, 'UTC', '2026-07-01T09:00:00Z').ends_at).toBeNull();
    expect(t('next Tuesday').starts_at).toBeNull();
    expect(t('2026-13-01').starts_at).toBeNull();
  });

  it('compares starts by instant', () => {
    expect(sameStart('2026-06-18T09:00:00+02:00', '2026-06-18T07:00:00+00:00')).toBe(true);
    expect(sameStart('2026-06-18T09:00:00+02:00', '2026-06-18T10:00:00+02:00')).toBe(false);
    expect(sameStart('2026-06-18', '2026-06-18T00:00:00+00:00')).toBe(false);
  });

  it('converts wall times at DST edges', () => {
    // 02:30 on the spring-forward night does not exist in Berlin; calendars move it to 03:30 CEST.
    const epoch = wallTimeToEpoch({ y: 2026, mo: 3, d: 29, h: 2, mi: 30, s: 0 }, 'Europe/Berlin');
    expect(new Date(epoch).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(offsetMinutes('Asia/Kolkata', Date.UTC(2026, 0, 1))).toBe(330);
    expect(isoInZone(Date.UTC(2026, 0, 1, 12), 'America/St_Johns')).toBe('2026-01-01T08:30:00-03:30');
  });
});
