/**
 * What an event may carry (docs/decisions/events-as-data.md): pages and models are untrusted, and their values end up in cards,
 * emails, webhooks and subscribed calendars. Browser-safe: the page and the .ics download use it too. The years
 * and days an event's date may have are core/time/calendar-day.ts's.
 */

export const TITLE_MAX = 200;
export const TEXT_MAX = 300;
export const LINK_MAX = 2048;

/*
 * C0 and C1 controls and DEL, the line and paragraph separators, and the bidirectional overrides and isolates
 * (which can make a card or a calendar entry read differently from what it holds). Tab and newlines become a
 * space; the rest are removed.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to remove
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;
const BREAKS = /[\t\n\r\u2028\u2029]/g;

/**
 * What any of the replaces below would change: a control, a break, whitespace other than a space, or two spaces.
 * Most values hold none, and are only trimmed: three replaces make three copies of each of a page's thousands.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters looked for
const CHANGED = /[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u2028\u2029]|[^\S ]| {2}/;

/** The text without control characters (see above), spaces collapsed. */
export function stripControls(value: string): string {
  if (!CHANGED.test(value)) return value.trim();
  return value.replace(BREAKS, ' ').replace(CONTROLS, '').replace(/\s+/g, ' ').trim();
}

/** One line of text without control characters, bounded; null when nothing is left. */
export function cleanText(value: string | null | undefined, max = TEXT_MAX): string | null {
  if (typeof value !== 'string') return null;
  const text = stripControls(value);
  if (!text) return null;
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * A link people and programs may follow: an absolute http(s) URL without user name or password, as the URL
 * parser writes it (so no control characters or spaces are left in it). javascript:, data:, vbscript:, file:
 * and the rest are dropped, as are relative links (the website layer resolves those against the page).
 */
export function safeLink(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const raw = stripControls(value);
  if (!raw || raw.length > LINK_MAX) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || !url.hostname) return null;
  return url.href;
}
