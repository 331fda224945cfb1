import type { FoundEvent } from '../contract/event';
import { normalise } from '../events/event-key';
import { sameStart } from '../events/event-time';

/** How far apart a model's start and a page's may be and still be one event: a wrong day, not another edition. */
export const MATCH_WINDOW_DAYS = 3;
const DAY_MS = 86_400_000;

const words = (title: string) =>
  new Set(
    normalise(title)
      .split(' ')
      .filter((w) => w.length > 1),
  );

/**
 * Whether two titles name one event: the same normalised title, one inside the other ("AI Summit Berlin" and
 * "The AI Summit Berlin: Day 1"), or most of their words shared. Never true for titles with nothing in common.
 */
export function titlesMatch(a: string, b: string): boolean {
  const x = normalise(a);
  const y = normalise(b);
  if (!x || !y) return false;
  if (x === y || ` ${x} `.includes(` ${y} `) || ` ${y} `.includes(` ${x} `)) return true;
  const wa = words(a);
  const wb = words(b);
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / new Set([...wa, ...wb]).size >= 0.6;
}

/** ms since epoch of a start; a date alone counts from its midnight UTC (close enough for a window of days). */
const instant = (startsAt: string) => Date.parse(startsAt.length === 10 ? `${startsAt}T00:00:00Z` : startsAt);

/**
 * The page event that is the model's event: a matching title and a start within MATCH_WINDOW_DAYS, the closest
 * start winning. Never by date alone, and never without a start on both sides; null when the page has none.
 */
export function matchOnPage(model: FoundEvent, page: FoundEvent[]): FoundEvent | null {
  if (!model.starts_at) return null;
  const at = instant(model.starts_at);
  if (Number.isNaN(at)) return null;
  let best: FoundEvent | null = null;
  let bestGap = Number.POSITIVE_INFINITY;
  for (const e of page) {
    if (!e.starts_at || !titlesMatch(model.title, e.title)) continue;
    const gap = Math.abs(instant(e.starts_at) - at);
    if (gap <= MATCH_WINDOW_DAYS * DAY_MS && gap < bestGap) {
      best = e;
      bestGap = gap;
    }
  }
  return best;
}

/** Whether two starts say the same: the same instant, or for a whole day the same date. */
function startsAgree(a: FoundEvent, b: FoundEvent): boolean {
  if (a.all_day || b.all_day) return a.starts_at?.slice(0, 10) === b.starts_at?.slice(0, 10) && a.all_day === b.all_day;
  return sameStart(a.starts_at, b.starts_at);
}

function endsAgree(a: FoundEvent, b: FoundEvent): boolean {
  if (!a.ends_at || !b.ends_at) return true;
  if (a.all_day || b.all_day) return a.ends_at.slice(0, 10) === b.ends_at.slice(0, 10);
  return sameStart(a.ends_at, b.ends_at);
}

/** The page agrees with the model on the start and, when both give one, the end. */
export function pageAgrees(model: FoundEvent, page: FoundEvent): boolean {
  return startsAgree(model, page) && endsAgree(model, page);
}
