/*
 * Whether a page's visible text shows an event's wall-clock time beside its title: the evidence that decides
 * between a written offset and the venue's zone when they contradict each other (docs/decisions/events-as-data.md). WordPress event
 * plugins write a local time with the site's wrong offset (The Events Calendar's "09:00+00:00" for a Detroit
 * meeting the page shows as "July 12 @ 9:00 am"), so the time the page shows is the one people go by.
 */

/** How far after a title's start (and before it) its event's time is looked for, in characters. */
const AFTER_TITLE = 400;
const BEFORE_TITLE = 200;
/** The part of a title looked for in the text: long titles are often cut or wrapped on the page. */
const TITLE_PREFIX = 60;
/** How many of the title's places in the text are looked at. */
const TITLE_PLACES = 20;

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ');

// A time the page itself marks as UTC ("19:00 UTC", "9:00 GMT+1", "19:00Z") is not the venue's wall time.
const NOT_LOCAL = `(?! ?(?:utc|gmt|z\\b))`;

/** The ways a page writes a wall-clock time: 9:00 am, 9am, 9 a.m., 09:00, 9.00, 9h00, 9 Uhr, 21:00. */
function timePatterns(h: number, mi: number): RegExp[] {
  const mm = String(mi).padStart(2, '0');
  const h12 = h % 12 || 12;
  const half = h < 12 ? 'a' : 'p';
  const minutes = mi === 0 ? `(?:[:.]00)?` : `[:.]${mm}`;
  const hour24 = h < 10 ? `0?${h}` : String(h);
  return [
    new RegExp(`(?<![\\d:.])0?${h12}${minutes} ?${half}\\.? ?m\\b\\.?${NOT_LOCAL}`),
    // A 24-hour time, not followed by am/pm (9:00 pm is 21:00, not 09:00).
    new RegExp(`(?<![\\d:.])${hour24}[:.h]${mm}(?![\\d]| ?[ap]\\.? ?m\\b)${NOT_LOCAL}`),
    ...(mi === 0 ? [new RegExp(`(?<![\\d:.])${hour24} ?(?:uhr|h)\\b${NOT_LOCAL}`)] : []),
  ];
}

// The page's folded text, kept for the page's next event (every one-off of a page asks about the same text).
let folded: { text: string; fold: string } | null = null;
const foldedText = (text: string) => {
  if (folded?.text !== text) folded = { text, fold: fold(text) };
  return folded.fold;
};

/**
 * Whether `text` shows the time `wall` within a few hundred characters of `title` (any of its occurrences).
 * A title the text does not hold shows nothing.
 */
export function textShowsTime(text: string, title: string, wall: { h: number; mi: number }): boolean {
  const haystack = foldedText(text);
  const needle = fold(title).trim().slice(0, TITLE_PREFIX).trim();
  if (needle.length < 3) return false;
  const patterns = timePatterns(wall.h, wall.mi);
  // The first few places the title appears: a listing names an event a handful of times, not thousands.
  let looked = 0;
  for (let at = haystack.indexOf(needle); at >= 0 && looked++ < TITLE_PLACES; at = haystack.indexOf(needle, at + 1)) {
    const around = haystack.slice(Math.max(0, at - BEFORE_TITLE), at + needle.length + AFTER_TITLE);
    if (patterns.some((p) => p.test(around))) return true;
  }
  return false;
}
