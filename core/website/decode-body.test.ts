import { describe, expect, it } from 'vitest';
import { decodeBody } from './decode-body';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('decodeBody', () => {
  it('reads UTF-8, and drops its byte order mark', () => {
    expect(decodeBody(Buffer.from('SUMMARY:Städa garaget', 'utf8'), 'text/calendar')).toBe('SUMMARY:Städa garaget');
    expect(decodeBody(bytes([0xef, 0xbb, 0xbf], 'BEGIN:VCALENDAR'), 'text/calendar')).toBe('BEGIN:VCALENDAR');
  });

  it('reads UTF-16 by its byte order mark (Windows Calendar exports), little and big endian', () => {
    const text = 'TZID:大阪、札幌、東京';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    expect(decodeBody(le, 'text/calendar')).toBe(text);
    expect(decodeBody(be, 'text/calendar')).toBe(text);
  });

  it('follows the charset the Content-Type states', () => {
    expect(decodeBody(bytes('Caf', [0xe9]), 'text/html; charset=ISO-8859-1')).toBe('Café');
    expect(decodeBody(bytes('Caf', [0xc3, 0xa9]), 'text/html; charset="utf-8"')).toBe('Café');
  });

  it('reads bytes that are no UTF-8 and no charset names as Windows-1252 (a converter’s curly apostrophe)', () => {
    expect(decodeBody(bytes('SUMMARY:UNC vs. St. Augustine', [0x92], 's'), 'text/calendar')).toBe('SUMMARY:UNC vs. St. Augustine’s');
  });

  it('keeps a calendar UTF-8 when a fold splits one of its characters', () => {
    const folded = bytes('DESCRIPTION:right ', [0xc2], '\r\n ', [0xa0], 'here\r\nSUMMARY:Caf', [0xc3, 0xa9]);
    expect(decodeBody(folded, 'text/calendar')).toBe('DESCRIPTION:right \u00a0here\r\nSUMMARY:Café');
  });
});
