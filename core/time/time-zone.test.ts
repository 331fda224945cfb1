import { describe, expect, it } from 'vitest';
import { canonicalZone, ianaTimeZone } from './canonical-zone';
import { ianaZone } from './zone-names';
import { isTimeZone, knownTimeZone, partsFormat } from './time-zone';

describe('the one time zone check', () => {
  it('knows IANA names and their aliases, and nothing else', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('US/Eastern')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(null)).toBe(false);
    expect(isTimeZone(undefined)).toBe(false);
    expect(isTimeZone(`Europe/${'x'.repeat(80)}`)).toBe(false);
  });

  it('stores a zone by its IANA name, and refuses an offset or a POSIX rule with a sentence', () => {
    expect(ianaTimeZone('europe/berlin')).toEqual({ ok: true, zone: 'Europe/Berlin' });
    expect(ianaTimeZone('Europe/Berlin')).toEqual({ ok: true, zone: 'Europe/Berlin' });
    expect(ianaTimeZone('utc')).toEqual({ ok: true, zone: 'UTC' });
    expect(ianaTimeZone('America/New_York')).toEqual({ ok: true, zone: 'America/New_York' });
    expect(ianaTimeZone('Etc/GMT+5')).toEqual({ ok: true, zone: 'Etc/GMT+5' });
    for (const offset of ['+05:00', '-0330'])
      expect(ianaTimeZone(offset)).toEqual({
        ok: false,
        message: `The time zone "${offset}" is a fixed offset from UTC, which does not follow summer time. Send the IANA name of your place, such as Europe/Berlin.`,
      });
    expect(ianaTimeZone('EST5EDT')).toEqual({
      ok: false,
      message: 'The time zone "EST5EDT" is a POSIX rule, not a place. Send the IANA name of your place, such as America/New_York.',
    });
  });

  it('keeps a zone by its current IANA name, never the old one the runtime’s Intl answers with', () => {
    // Intl (ICU) answers 'Asia/Calcutta' and 'Europe/Kiev' for these; a person who typed the current name sees it.
    expect(ianaTimeZone('Asia/Kolkata')).toEqual({ ok: true, zone: 'Asia/Kolkata' });
    expect(ianaTimeZone('asia/kolkata')).toEqual({ ok: true, zone: 'Asia/Kolkata' });
    expect(ianaTimeZone('Asia/Calcutta')).toEqual({ ok: true, zone: 'Asia/Kolkata' });
    expect(ianaTimeZone('Europe/Kyiv')).toEqual({ ok: true, zone: 'Europe/Kyiv' });
    expect(ianaTimeZone('europe/kiev')).toEqual({ ok: true, zone: 'Europe/Kyiv' });
    expect(ianaTimeZone('Asia/Saigon')).toEqual({ ok: true, zone: 'Asia/Ho_Chi_Minh' });
    expect(ianaTimeZone('US/Eastern')).toEqual({ ok: true, zone: 'America/New_York' });
    expect(ianaTimeZone('Etc/UTC')).toEqual({ ok: true, zone: 'UTC' });
    expect(ianaTimeZone('GMT')).toEqual({ ok: true, zone: 'UTC' });
    // A calendar's TZID is named the same way.
    expect(ianaZone(' Asia/Calcutta ')).toBe('Asia/Kolkata');
    expect(canonicalZone('America/Ciudad_Juarez')).toBe('America/Ciudad_Juarez');
  });

  it('falls back to UTC for a zone it does not know, and keeps one it does as written', () => {
    expect(knownTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(knownTimeZone('Mars/Olympus')).toBe('UTC');
    expect(knownTimeZone(undefined)).toBe('UTC');
  });

  it("throws Intl's RangeError for a zone it does not know, asked again or not", () => {
    expect(() => partsFormat('Mars/Olympus')).toThrow(RangeError);
    expect(() => partsFormat('Mars/Olympus')).toThrow(RangeError);
  });

  it('names the canonical zone of an alias, and none for an unknown name', () => {
    expect(ianaZone(' Asia/Calcutta ')).toBe('Asia/Kolkata');
    expect(ianaZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(ianaZone('Mars/Olympus')).toBeUndefined();
    expect(ianaZone('   ')).toBeUndefined();
  });
});
