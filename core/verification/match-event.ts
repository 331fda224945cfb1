import type { FoundEvent } from '../contract/event';
import { normalise } from '../events/event-key';
import { sameStart } from '../events/event-time';

/** How far apart a model's start and a page's may be and still be one event: a wrong day, not another edition. */
export const MATCH_WINDOW_DAYS = 3;
const DAY_MS = 86_400_000;

// Words that join a title's words and name nothing (English, German, French, Spanish, Dutch, Italian).
const STOP_WORDS = new Set(
  (
    'the an and of in at on for with to by from or vs ' +
    'der die das und im am an mit von vom zum zur fur den dem des ein eine bei ' +
    'le la les du des et au aux en sur ' +
    'el los las del con por para ' +
    'het een en van op met voor ' +
    'il lo gli di da della per'
  ).split(' '),
);

// Words that say what kind of event it is, never which one: a title made of them names no event of its own.
const GENERIC_WORDS = new Set(
  (
    'event events meetup meetups meeting night nights day days evening morning afternoon weekend week party ' +
    'concert concerts show shows session sessions talk talks workshop workshops conference summit festival fest ' +
    'live open special edition opening tour class course lecture seminar webinar online gala fair market ' +
    'nacht tag abend treffen konzert konferenz vortrag soiree soir journee fiesta noche dia'
  ).split(' '),
);

/** A title's significant words: no joining words, no numbers (years, editions), no single letters. */
function significantWords(title: string): Set<string> {
  return new Set(
    normalise(title)
      .split(' ')
      .filter((w) => w.length > 1 && !/^\d+$/.test(w) && !STOP_WORDS.has(w)),
  );
}

/** How closely a page event's title names the model's: lower is closer; null when it does not name it. */
export type TitleTier = 0 | 1 | 2;

const exactly = (title: string) => title.trim().replace(/\s+/g, ' ');

/**
 * How a page's title names the model's (the order checking prefers them in): 0 the same title, 1 the same once
 * normalised (case, accents, punctuation, years), 2 near: they share most of their significant words, at least
 * two and one that is not a kind of event, or the model's whole title (two words or more) stands inside the page's
 * ("ML Meetup" in "Berlin ML Meetup: Transformers"). A single common word never names an event: a page title
 * much shorter than the model's ("AI" for "AI Summit Berlin", "Berlin" for "Tech Summit Berlin") or only
 * generic ("Night Party") names none of it. Null when the titles do not name one event.
 */
export function titleTier(model: string, page: string): TitleTier | null {
  if (exactly(model) === exactly(page) && exactly(model) !== '') return 0;
  const x = normalise(model);
  if (x !== '' && x === normalise(page)) return 1;
  const a = significantWords(model);
  const b = significantWords(page);
  const shared = [...a].filter((w) => b.has(w));
  if (!shared.some((w) => !GENERIC_WORDS.has(w))) return null;
  // The same one distinctive word on both sides ("Lollapalooza", "Lollapalooza 2027").
  if (a.size === 1 && b.size === 1) return shared.length === 1 ? 2 : null;
  if (shared.length < 2) return null;
  if (shared.length === a.size) return 2;
  return shared.length / new Set([...a, ...b]).size >= 0.6 ? 2 : null;
}

/** Whether two titles name one event (see titleTier). */
export function titlesMatch(a: string, b: string): boolean {
  return titleTier(a, b) !== null;
}

/** ms since epoch of a start; a date alone counts from its midnight UTC (close enough for a window of days). */
const instant = (startsAt: string) => Date.parse(startsAt.length === 10 ? `${startsAt}T00:00:00Z` : startsAt);

/** The page event found for the model's, and whether it agrees with the model's start and end. */
export interface PageMatch {
  event: FoundEvent;
  agrees: boolean;
}

/**
 * The page event that is the model's event: a title that names it (titleTier) and a start within
 * MATCH_WINDOW_DAYS. When any such event agrees with the model's start (and end), that one: a right date is
 * never corrected to another event's (a match and its TV broadcast half an hour earlier under a shorter title).
 * Otherwise the closest title (exact, then normalised, then near), then the closest start. Never by date alone,
 * and never without a start on both sides; null when the page has none.
 */
export function matchOnPage(model: FoundEvent, page: FoundEvent[]): PageMatch | null {
  if (!model.starts_at) return null;
  const at = instant(model.starts_at);
  if (Number.isNaN(at)) return null;
  let best: { event: FoundEvent; rank: [number, number, number] } | null = null;
  for (const e of page) {
    if (!e.starts_at) continue;
    const tier = titleTier(model.title, e.title);
    if (tier === null) continue;
    const gap = Math.abs(instant(e.starts_at) - at);
    if (!(gap <= MATCH_WINDOW_DAYS * DAY_MS)) continue;
    const rank: [number, number, number] = [pageAgrees(model, e) ? 0 : 1, tier, gap];
    if (!best || before(rank, best.rank)) best = { event: e, rank };
  }
  return best ? { event: best.event, agrees: best.rank[0] === 0 } : null;
}

const before = (x: number[], y: number[]) => {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return false;
};

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
