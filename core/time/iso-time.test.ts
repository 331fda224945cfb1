import { describe, expect, it } from 'vitest';
import { addDuration, isoDateTime } from './iso-time';

describe('isoDateTime', () => {
  it('writes what the source said in ISO 8601, adding and removing no zone', () => {
    expect(isoDateTime('2026-05-28 19:00')).toBe('2026-05-28T19:00');
    expect(isoDateTime('2026-05-28T19:00:00+0200')).toBe('2026-05-28T19:00:00+02:00');
    expect(isoDateTime('2026-05-28T17:00:00z')).toBe('2026-05-28T17:00:00Z');
    expect(isoDateTime('2026-05-28T19:00-06')).toBe('2026-05-28T19:00-06:00');
    expect(isoDateTime('2026-05-28')).toBe('2026-05-28');
    expect(isoDateTime('next Tuesday')).toBeUndefined();
  });

  it("reads ISO 8601's basic format, as hCalendar copies iCalendar values into title attributes", () => {
    // any23's hCalendar version of RFC 2445's first example: <abbr class="dtstart" title="19970903T163000Z">
    expect(isoDateTime('19970903T163000Z')).toBe('1997-09-03T16:30:00Z');
    expect(isoDateTime('19970901T1300Z')).toBe('1997-09-01T13:00Z');
    expect(isoDateTime('20260528T190000')).toBe('2026-05-28T19:00:00');
    expect(isoDateTime('20260528T190000-0600')).toBe('2026-05-28T19:00:00-06:00');
    expect(isoDateTime('20260528')).toBe('2026-05-28');
    expect(isoDateTime('2026052')).toBeUndefined();
  });
  it('reads an ordinal date (year and day of the year), as the value-class pattern allows', () => {
    // mf2py's test/examples/datetimes.html: <span class="value">2016-062</span> <span class="value">12:30AM</span>
    expect(isoDateTime('2016-062 00:30-0600')).toBe('2016-03-02T00:30-06:00');
    expect(isoDateTime('2016-366')).toBe('2016-12-31');
    expect(isoDateTime('2015-366')).toBeUndefined();
    expect(isoDateTime('2016-000')).toBeUndefined();
  });
});

describe('isoDateTime on dates as pages print them', () => {
  it('pads a one-digit month, day or hour (2018-7-19, as PHP writes Y-n-j)', () => {
    // any23's saved golfavisen.dk page: the eventON calendar's microdata startDate content='2018-7-19'.
    expect(isoDateTime('2018-7-19')).toBe('2018-07-19');
    expect(isoDateTime('2026-5-8T9:30+0200')).toBe('2026-05-08T09:30+02:00');
    expect(isoDateTime('2018-7-19T00-00-00-00')).toBeUndefined();
  });

  it('reads an offset whose hour has one digit or whose minutes run on (+0:00, +000, -4:00)', () => {
    // eventON writes its JSON-LD startDate with '+0:00'; other WordPress plugins '-4:00' or '+000'.
    expect(isoDateTime('2026-07-12T09:00+0:00')).toBe('2026-07-12T09:00+00:00');
    expect(isoDateTime('2026-07-12T09:00:00+000')).toBe('2026-07-12T09:00:00+00:00');
    expect(isoDateTime('2026-11-05T18:30-4:00')).toBe('2026-11-05T18:30-04:00');
    expect(isoDateTime('2026-11-05T18:30-400')).toBe('2026-11-05T18:30-04:00');
    expect(isoDateTime('2026-11-05T18:30+5:30')).toBe('2026-11-05T18:30+05:30');
    expect(isoDateTime('2026-11-05T18:30-4')).toBe('2026-11-05T18:30-04:00');
    expect(isoDateTime('2026-11-05T18:30+0:0')).toBeUndefined();
  });

  it('reads a dash for the T before a time with seconds (2012-05-13-11:00:00, PHP Y-m-d-H:i:s)', () => {
    // trafilatura's saved wehranlage-horka.de page: The Events Calendar's microdata content="2012-05-13-11:00:00".
    expect(isoDateTime('2012-05-13-11:00:00')).toBe('2012-05-13T11:00:00');
    expect(isoDateTime('2012-05-13-11:00:00+02:00')).toBe('2012-05-13T11:00:00+02:00');
    // Without seconds the dash is xs:date's offset, not a time of day.
    expect(isoDateTime('2012-05-13-11:00')).toBeUndefined();
  });

  it('reads an English date and time of day, adding no zone', () => {
    // any23's excerpt of Eventful's Los Angeles listing: "startDate": "Wednesday, August  8, 2018  7:00 PM".
    expect(isoDateTime('Wednesday, August  8, 2018  7:00 PM')).toBe('2018-08-08T19:00');
    expect(isoDateTime('Saturday, September  1, 2018 12:30 PM')).toBe('2018-09-01T12:30');
    expect(isoDateTime('Sept. 5th, 2019 at 12am')).toBe('2019-09-05T00:00');
    expect(isoDateTime('8 August 2018 19:00')).toBe('2018-08-08T19:00');
    expect(isoDateTime('Aug 8, 2018')).toBe('2018-08-08');
    expect(isoDateTime('February 30, 2019')).toBeUndefined();
    expect(isoDateTime('August 8, 2018 7')).toBeUndefined();
    expect(isoDateTime('August 8, 2018 13:00 PM')).toBeUndefined();
    expect(isoDateTime('May 2026')).toBeUndefined();
  });
});

describe('addDuration', () => {
  it('adds on the wall clock and keeps the offset; for dates gives the last day covered', () => {
    expect(addDuration('2026-06-09T18:30:00', 'PT1H45M')).toBe('2026-06-09T20:15:00');
    expect(addDuration('2026-06-09T23:30+02:00', 'PT1H')).toBe('2026-06-10T00:30+02:00');
    expect(addDuration('2026-07-01', 'P2D')).toBe('2026-07-02');
    expect(addDuration('2026-07-01', 'P1W')).toBe('2026-07-07');
    expect(addDuration('0026-07-01', 'P1D')).toBe('0026-07-01');
    expect(addDuration('2026-07-01', 'P')).toBeUndefined();
    expect(addDuration('2026-07-01', 'three days')).toBeUndefined();
  });
});
