import { describe, expect, it } from 'vitest';
import { eventTime, sameStart, type ZoneKnowledge } from './event-time';
import { isoInZone, offsetMinutes, wallTimeToEpoch } from '../time/zoned-time';

const source = (zone: string): ZoneKnowledge['own'] => ({ zone, source: 'source' });
const t = (start: string | null, own: ZoneKnowledge['own'] = null, searcherTimezone = 'Europe/Berlin', end: string | null = null) =>
  eventTime({ start, end, known: { own, searcherTimezone } });

describe('event times', () => {
  it('reads midnight to 23:59 as whole days, as The Events Calendar writes an all-day event', () => {
    expect(t('2023-11-02T00:00:00+01:00', null, 'America/Los_Angeles', '2023-11-02T23:59:59+01:00')).toMatchObject({
      starts_at: '2023-11-02',
      ends_at: null,
      all_day: true,
    });
    expect(t('2020-11-11T00:00', null, 'Europe/Berlin', '2020-11-13T23:59')).toMatchObject({
      starts_at: '2020-11-11',
      ends_at: '2020-11-13',
      all_day: true,
    });
    // A start after midnight, an end before the last minute, or times converted to UTC are times.
    expect(t('2022-02-24T18:30:00+01:00', null, 'UTC', '2022-02-24T23:59:00+01:00').all_day).toBe(false);
    expect(t('2022-02-24T00:00:00+01:00', null, 'UTC', '2022-02-24T22:00:00+01:00').all_day).toBe(false);
    expect(t('2022-02-24T00:00:00Z', null, 'UTC', '2022-02-24T23:59:59Z').all_day).toBe(false);
    expect(t('2022-02-24T00:00:00+01:00', null, 'UTC').all_day).toBe(false);
  });

  it('keeps an explicit offset as the local time when no zone is known, whoever searches', () => {
    expect(t('2026-06-18T09:00:00+02:00')).toEqual({
      starts_at: '2026-06-18T09:00:00+02:00',
      ends_at: null,
      all_day: false,
      timezone: null,
      timezone_source: 'offset',
    });
    expect(t('2026-06-18T09:00-0400', null, 'UTC').starts_at).toBe('2026-06-18T09:00:00-04:00');
    // A UTC time stays in UTC: reading it in the searcher's zone would change its local date per searcher.
    expect(t('2026-06-17T22:30:00Z', null, 'Europe/Berlin').starts_at).toBe('2026-06-17T22:30:00+00:00');
    expect(t('2026-06-17T22:30:00Z', null, 'Asia/Tokyo').starts_at).toBe('2026-06-17T22:30:00+00:00');
  });

  it('shows a time with an offset in the event’s own zone, same instant', () => {
    expect(t('2026-06-17T22:30:00Z', source('America/New_York'))).toMatchObject({
      starts_at: '2026-06-17T18:30:00-04:00',
      timezone: 'America/New_York',
      timezone_source: 'source',
    });
  });

  it('reads a floating time in the named zone (iCalendar TZID), across DST', () => {
    expect(t('2026-06-09T18:30:00', source('Europe/Berlin'), 'UTC')).toMatchObject({
      starts_at: '2026-06-09T18:30:00+02:00',
      timezone: 'Europe/Berlin',
    });
    expect(t('2026-01-09T18:30:00', source('Europe/Berlin'), 'UTC').starts_at).toBe('2026-01-09T18:30:00+01:00');
    expect(t('2026-06-09T18:30:00', source('Not/AZone'), 'Asia/Tokyo')).toMatchObject({
      starts_at: '2026-06-09T18:30:00+09:00',
      timezone: 'Asia/Tokyo',
      timezone_source: 'searcher',
    });
  });

  it('reads a floating time on the page’s agreed offset before the searcher’s zone', () => {
    const r = eventTime({
      start: '2026-06-09T18:30:00',
      end: null,
      known: { own: null, page: { offset: -300 }, searcherTimezone: 'Asia/Tokyo' },
    });
    expect(r).toMatchObject({ starts_at: '2026-06-09T18:30:00-05:00', timezone: null, timezone_source: 'page' });
  });

  it('keeps dates as all-day, and drops ends before starts and unreadable values', () => {
    expect(t('2026-07-01', null, 'UTC', '2026-07-02')).toEqual({
      starts_at: '2026-07-01',
      ends_at: '2026-07-02',
      all_day: true,
      timezone: null,
      timezone_source: null,
    });
    expect(t('2026-07-01T10:00:00Z', null, 'UTC', '2026-07-01T09:00:00Z').ends_at).toBeNull();
    expect(t('next Tuesday').starts_at).toBeNull();
    expect(t('2026-13-01').starts_at).toBeNull();
  });

  it('refuses dates that are not on the calendar and years outside 1970–2200', () => {
    expect(t('2026-02-31T19:00:00+01:00').starts_at).toBeNull();
    expect(t('2026-02-29').starts_at).toBeNull();
    expect(t('2028-02-29').starts_at).toBe('2028-02-29');
    expect(t('2026-04-31').starts_at).toBeNull();
    expect(t('0026-05-28T19:00:00').starts_at).toBeNull();
    expect(t('1926-05-28').starts_at).toBeNull();
    expect(t('2201-01-01').starts_at).toBeNull();
    // A valid start keeps its impossible end out.
    expect(t('2026-02-27', null, 'UTC', '2026-02-30')).toMatchObject({ starts_at: '2026-02-27', ends_at: null });
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
