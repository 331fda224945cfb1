const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const DELETE = 0x7f;

/**
 * True when `text` holds a C0 control character (U+0000-U+001F) or DEL that it must not: any at all in a
 * one-line field (an address, a time zone); any but tab, newline and carriage return (pasted CRLF text) in a
 * multi-line one (a question). Postgres refuses NUL in text outright ("invalid byte sequence"), and the others
 * have no business in a question or an address: they hide text in logs, e-mails and the page.
 */
export function hasControlCharacters(text: string, kind: 'single-line' | 'multi-line'): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === DELETE) return true;
    if (code >= 0x20) continue;
    if (kind === 'single-line' || (code !== TAB && code !== LINE_FEED && code !== CARRIAGE_RETURN)) return true;
  }
  return false;
}

/** The sentence for a refused field, e.g. controlCharacterMessage('question'). */
export function controlCharacterMessage(field: string): string {
  return `The ${field} contains an invisible control character (such as a NUL byte). Please retype it as plain text.`;
}
