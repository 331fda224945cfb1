import { describe, expect, it } from 'vitest';
import {
  formatDay,
  formatDayOf,
  formatEventDate,
  formatEventDays,
  formatEventMoment,
  formatShortMoment,
  formatWallClock,
  localeClock,
  withZone,
  zoneLabel,
} from './event-date-format';

// Every expected string is written by hand from a calendar (the style of docs/decisions/time.md).
const timed = (starts_at: string, ends_at: string | null = null, timezone: string | null = null) => ({
  starts_at,
  ends_at,
  all_day: false,
  timezone,
});

describe('the one date style', () => {
  it('writes one instant in several zones: weekday, day, month, year, clock', () => {
    const at = new Date('2026-07-12T17:00:00Z');
    expect(formatEventMoment(at, 'UTC')).toBe('Sun 12 Jul 2026, 17:00');
    expect(formatEventMoment(at, 'Europe/Berlin')).toBe('Sun 12 Jul 2026, 19:00');
    expect(formatEventMoment(at, 'America/New_York')).toBe('Sun 12 Jul 2026, 13:00');
    expect(formatEventMoment(at, 'America/Los_Angeles')).toBe('Sun 12 Jul 2026, 10:00');
    expect(formatEventMoment(at, 'Asia/Tokyo')).toBe('Mon 13 Jul 2026, 02:00');
    expect(formatEventMoment(at, 'Asia/Kolkata')).toBe('Sun 12 Jul 2026, 22:30');
    expect(formatEventMoment(at, 'Asia/Kathmandu')).toBe('Sun 12 Jul 2026, 22:45');
    expect(formatEventMoment(at, 'Pacific/Honolulu')).toBe('Sun 12 Jul 2026, 07:00');
    expect(formatEventMoment(new Date('2026-09-08T07:05:00Z'), 'UTC')).toBe('Tue 8 Sep 2026, 07:05');
  });

  it('reads a 12-hour clock where the reader does, and only the clock changes', () => {
    const at = new Date('2026-07-12T17:00:00Z');
    expect(formatEventMoment(at, 'America/New_York', '12h')).toBe(`Sun 12 Jul 2026, 1:00 PM`);
    expect(formatEventMoment(new Date('2026-07-12T04:00:00Z'), 'America/New_York', '12h')).toBe(`Sun 12 Jul 2026, 12:00 AM`);
    expect(formatEventMoment(new Date('2026-07-12T16:00:00Z'), 'America/New_York', '12h')).toBe(`Sun 12 Jul 2026, 12:00 PM`);
    expect(formatWallClock('18:30', '12h')).toBe(`6:30 PM`);
    expect(formatWallClock('00:05', '12h')).toBe(`12:05 AM`);
    expect(formatWallClock('7:05')).toBe('07:05');
    expect(formatWallClock('25:00')).toBe('25:00');
    expect(localeClock('en-US')).toBe('12h');
    expect(localeClock('en-GB')).toBe('24h');
    expect(localeClock('de-DE')).toBe('24h');
    expect(localeClock('not a locale!')).toBe('24h');
  });

  it('follows the zone across its DST changes, spring and autumn', () => {
    // Berlin: 02:00 CET becomes 03:00 CEST on 29 March; 03:00 CEST becomes 02:00 CET on 25 October.
    expect(formatEventMoment(new Date('2026-03-29T00:30:00Z'), 'Europe/Berlin')).toBe('Sun 29 Mar 2026, 01:30');
    expect(formatEventMoment(new Date('2026-03-29T01:30:00Z'), 'Europe/Berlin')).toBe('Sun 29 Mar 2026, 03:30');
    expect(formatEventMoment(new Date('2026-10-25T00:30:00Z'), 'Europe/Berlin')).toBe('Sun 25 Oct 2026, 02:30');
    expect(formatEventMoment(new Date('2026-10-25T01:30:00Z'), 'Europe/Berlin')).toBe('Sun 25 Oct 2026, 02:30');
    // New York: 02:00 EST becomes 03:00 EDT on 8 March.
    expect(formatEventMoment(new Date('2026-03-08T06:30:00Z'), 'America/New_York')).toBe('Sun 8 Mar 2026, 01:30');
    expect(formatEventMoment(new Date('2026-03-08T07:30:00Z'), 'America/New_York')).toBe('Sun 8 Mar 2026, 03:30');
    // A time without offset in the event's zone, in the hour spring skips: forward, as calendars do.
    expect(formatEventDate(timed('2026-03-29T02:30:00', null, 'Europe/Berlin'), 'Europe/Berlin')).toBe('Sun 29 Mar 2026, 03:30');
  });

  it('names a zone after the date, always the same way', () => {
    const e = timed('2026-07-12T19:00:00+02:00');
    expect(formatEventDate(e, 'Europe/Berlin', { nameZone: true })).toBe('Sun 12 Jul 2026, 19:00 (Europe/Berlin)');
    expect(formatEventDate(e, 'America/New_York', { nameZone: true })).toBe('Sun 12 Jul 2026, 13:00 (America/New York)');
    expect(formatEventDate(e, 'Europe/Berlin')).toBe('Sun 12 Jul 2026, 19:00');
    expect(zoneLabel('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos Aires');
    expect(withZone('Sun 12 Jul 2026, 19:00', 'America/New_York')).toBe('Sun 12 Jul 2026, 19:00 (America/New York)');
  });

  it('writes an event that ends on a later day as a range in the same style, and one that ends the same day by its start', () => {
    const conference = timed('2026-07-10T09:00:00+02:00', '2026-07-12T17:00:00+02:00');
    expect(formatEventDate(conference, 'Europe/Berlin')).toBe('Fri 10 Jul 2026, 09:00 – Sun 12 Jul 2026, 17:00');
    expect(formatEventDate(conference, 'Europe/Berlin', { nameZone: true })).toBe(
      'Fri 10 Jul 2026, 09:00 – Sun 12 Jul 2026, 17:00 (Europe/Berlin)',
    );
    expect(formatEventDate(conference, 'Europe/Berlin', { short: true })).toBe('10 Jul, 09:00 – 12 Jul, 17:00');
    expect(formatEventDate(conference, 'America/New_York', { clock: '12h' })).toBe(`Fri 10 Jul 2026, 3:00 AM – Sun 12 Jul 2026, 11:00 AM`);
    // 22:00 to 02:00 in Berlin crosses midnight there; in New York it is 16:00 to 20:00 of one day.
    const party = timed('2026-07-11T22:00:00+02:00', '2026-07-12T02:00:00+02:00');
    expect(formatEventDate(party, 'Europe/Berlin')).toBe('Sat 11 Jul 2026, 22:00 – Sun 12 Jul 2026, 02:00');
    expect(formatEventDate(party, 'America/New_York')).toBe('Sat 11 Jul 2026, 16:00');
    // An end before the start says nothing.
    expect(formatEventDate(timed('2026-07-12T19:00:00+02:00', '2026-07-10T19:00:00+02:00'), 'Europe/Berlin')).toBe(
      'Sun 12 Jul 2026, 19:00',
    );
  });

  it('writes all-day events as their days, the same in every zone and never with one', () => {
    const day = { starts_at: '2026-06-01', ends_at: null, all_day: true };
    const days = { starts_at: '2026-06-01', ends_at: '2026-06-03', all_day: true };
    expect(formatEventDate(day, 'Pacific/Auckland', { nameZone: true })).toBe('Mon 1 Jun 2026');
    expect(formatEventDate(days, 'Pacific/Honolulu', { nameZone: true })).toBe('Mon 1 Jun 2026 – Wed 3 Jun 2026');
    expect(formatEventDate(days, 'Europe/Berlin', { short: true })).toBe('Mon 1 Jun 2026 – Wed 3 Jun 2026');
    expect(formatEventDays('2026-12-31', '2027-01-02')).toBe('Thu 31 Dec 2026 – Sat 2 Jan 2027');
    expect(formatEventDays('2026-06-01', '2026-06-01')).toBe('Mon 1 Jun 2026');
    expect(formatDay('2028-02-29')).toBe('Tue 29 Feb 2028');
    // Any year a date window names, the first and the last four-digit ones too (Date.UTC reads 0001 as 1901).
    expect(formatEventDays('0001-01-01', '9999-12-31')).toBe('Mon 1 Jan 1 – Fri 31 Dec 9999');
    // A date alone is a day even where all_day was not set.
    expect(formatEventDate(timed('2026-06-01'), 'Asia/Tokyo', { nameZone: true })).toBe('Mon 1 Jun 2026');
  });

  it('shows a time written with no zone or offset as written, naming no zone; with the event zone, as that instant', () => {
    const floating = timed('2026-07-12T19:00:00');
    expect(formatEventDate(floating, 'Europe/Berlin')).toBe('Sun 12 Jul 2026, 19:00');
    expect(formatEventDate(floating, 'Asia/Tokyo', { nameZone: true })).toBe('Sun 12 Jul 2026, 19:00');
    expect(formatEventDate(timed('2026-07-12T19:00', '2026-07-13T01:00'), 'UTC', { nameZone: true })).toBe(
      'Sun 12 Jul 2026, 19:00 – Mon 13 Jul 2026, 01:00',
    );
    // 19:00 in New York is 01:00 the next day in Berlin.
    expect(formatEventDate(timed('2026-07-12T19:00:00', null, 'America/New_York'), 'Europe/Berlin', { nameZone: true })).toBe(
      'Mon 13 Jul 2026, 01:00 (Europe/Berlin)',
    );
  });

  it('says "Date not known" without a readable start', () => {
    expect(formatEventDate({ starts_at: null, ends_at: null, all_day: false }, 'UTC')).toBe('Date not known');
    expect(formatEventDate(timed('next Tuesday'), 'UTC')).toBe('Date not known');
    expect(formatEventDate(timed('2026-02-30T19:00:00Z'), 'UTC')).toBe('Date not known');
  });

  it('writes the day an instant falls on, and a moment short for a phone', () => {
    const renews = new Date('2026-12-01T05:00:00Z');
    expect(formatDayOf(renews, 'Europe/Berlin')).toBe('Tue 1 Dec 2026');
    expect(formatDayOf(renews, 'America/Los_Angeles')).toBe('Mon 30 Nov 2026');
    const at = new Date('2026-11-24T13:23:00Z');
    expect(formatShortMoment(at, 'Europe/Berlin')).toBe('24 Nov, 14:23');
    expect(formatShortMoment(at, 'America/New_York', '12h')).toBe(`24 Nov, 8:23 AM`);
    expect(formatShortMoment(new Date('2026-11-24T08:05:00Z'), 'UTC')).toBe('24 Nov, 08:05');
  });
});
