/**
 * A fetched body's bytes as text. Most pages and calendars are UTF-8, but real ones also come as UTF-16 with a
 * byte order mark (Windows Calendar exports), or in Windows-1252 without saying so (a converter's curly
 * apostrophe, 0x92). Read as UTF-8 regardless, the first yields nothing and the second a replacement
 * character. The order is the one browsers use: a byte order mark, then the charset the Content-Type
 * states, then UTF-8 when the bytes are valid UTF-8, else Windows-1252 (which reads every byte).
 */
export function decodeBody(bytes: Uint8Array, contentTypeHeader: string): string {
  const bom = byteOrderMark(bytes);
  if (bom) return new TextDecoder(bom.encoding).decode(bytes.subarray(bom.length));
  const declared = declaredCharset(contentTypeHeader);
  if (declared) return declared.decode(bytes);
  const utf8 = strictUtf8(bytes);
  if (utf8 !== null) return utf8;
  // RFC 5545 3.1: a simple writer may fold a line inside a UTF-8 character; unfolded, the bytes are UTF-8 again.
  if (/^text\/calendar\b/i.test(contentTypeHeader.trim())) {
    const unfolded = strictUtf8(unfoldOctets(bytes));
    if (unfolded !== null) return unfolded;
  }
  return windows1252(bytes);
}

// Windows-1252's 0x80-0x9F (the rest is Latin-1). Node 20's TextDecoder('windows-1252') reads these as C1
// controls, as Latin-1 does: 0x92 would be U+0092, not the apostrophe the writer meant.
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function windows1252(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = Array.from(bytes.subarray(i, i + 8192), (b) => (b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80]! : String.fromCharCode(b)));
    text += chunk.join('');
  }
  return text;
}

function byteOrderMark(b: Uint8Array): { encoding: string; length: number } | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (b[0] === 0xff && b[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/** The decoder for the charset the header names, when it names one the platform knows. */
function declaredCharset(header: string): TextDecoder | null {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header)?.[1];
  if (!charset) return null;
  try {
    return new TextDecoder(charset);
  } catch {
    return null;
  }
}

function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The bytes with each line break that a space or tab follows removed: iCalendar's unfolding, done on octets. */
function unfoldOctets(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length);
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    const breakLength = b[i] === 0x0d && b[i + 1] === 0x0a ? 2 : b[i] === 0x0a || b[i] === 0x0d ? 1 : 0;
    const next = b[i + breakLength];
    if (breakLength && (next === 0x20 || next === 0x09)) {
      i += breakLength;
      continue;
    }
    out[n++] = b[i]!;
  }
  return out.subarray(0, n);
}
