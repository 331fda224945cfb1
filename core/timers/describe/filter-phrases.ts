import * as chrono from 'chrono-node';
import type { Attendance, DateWindow, PlaceFilter } from '../../contract/timer-filters';
import { findPlace } from '../../filters/gazetteer';
import { NUMBER_WORDS, numberOf, type Words } from './words';

/** A place named without a radius ("in Berlin", "near Potsdam") counts this far around it; said in a note. */
export const DEFAULT_RADIUS_KM = 25;

export interface FilterPhrases {
  window: DateWindow | null;
  place: PlaceFilter | null;
  attendance: Attendance;
  exclude: string[];
  notes: string[];
}

const CITY = String.raw`(\p{Lu}[\p{L}.'-]*(?:\s+(?:am|an der|a\.\s?M\.|upon|on)?\s*\p{Lu}[\p{L}.'-]*){0,2})`;

/** The longest run of leading words that names a known city ("Frankfurt am Main", "Berlin Mitte" → Berlin). */
function cityIn(words: string): { name: string; length: number } | null {
  const parts = words.split(/\s+/);
  for (let n = parts.length; n > 0; n--) {
    const name = parts.slice(0, n).join(' ');
    if (findPlace(name)) return { name, length: name.length };
  }
  return null;
}

/** The filters a sentence states in words, English or German, each taken out of `words`. */
export function filterPhrases(words: Words, now: Date): FilterPhrases {
  const out: FilterPhrases = { window: null, place: null, attendance: 'both', exclude: [], notes: [] };

  // A place is where to look: its phrase stays in the question as written, and also becomes the filter.
  // "within 20 km of Berlin", "20km around Potsdam", "im Umkreis von 30 km um München", "50 km um Köln"
  words.hold(
    new RegExp(
      String.raw`(?:\b(?:within|in a radius of|up to|im umkreis von|bis zu|in)\s+)?(\d+(?:[.,]\d+)?)\s*(?:km|kilometers?|kilometres?|kilometern?)\s+(?:of|around|from|near|um|von|rund um|ab)\s+${CITY}`,
      'iu',
    ),
    (m) => {
      const city = cityIn(m[2]!);
      if (!city || out.place) return false;
      out.place = { name: city.name, radius_km: Number(m[1]!.replace(',', '.')) };
      return true;
    },
  );
  // "near Berlin", "around Potsdam", "in der Nähe von Hamburg", "rund um Köln": the default radius, said.
  words.hold(new RegExp(String.raw`\b(?:near|around|close to|in der nähe von|nahe|rund um)\s+${CITY}`, 'iu'), (m) => {
    const city = cityIn(m[1]!);
    if (!city || out.place) return false;
    out.place = { name: city.name, radius_km: DEFAULT_RADIUS_KM };
    return true;
  });
  // "in Berlin" likewise.
  if (!out.place) {
    const m = new RegExp(String.raw`\b(?:in|im raum)\s+${CITY}`, 'u').exec(words.rest);
    const city = m ? cityIn(m[1]!) : null;
    if (city) out.place = { name: city.name, radius_km: DEFAULT_RADIUS_KM };
  }
  if (out.place?.radius_km === DEFAULT_RADIUS_KM) {
    out.notes.push(
      `No distance was said: events within ${DEFAULT_RADIUS_KM} km of ${out.place.name} are kept. Change the radius if you like.`,
    );
  }

  // Attendance: "online or in person" first, so its halves are not read alone.
  words.take(
    /\b(?:online or in[ -]person|in[ -]person or online|hybrid|online oder vor ort|vor ort oder online|online und vor ort)\b/iu,
    () => {
      out.attendance = 'both';
    },
  );
  // "not online", "no online events", "nicht online", "kein Online": in person, not a word to leave out.
  words.take(
    /\b(?:not|no|never|nicht|keine?n?)\s+(?:online|virtual|virtuell|remote)(?:\s+(?:events?|ones?|only|veranstaltungen|termine))?(?=\s|,|\.|;|$)/iu,
    () => {
      out.attendance = 'in_person';
    },
  );
  words.take(/\b(?:in[ -]person|offline|on[ -]site|vor ort|in präsenz|präsenz)(?=\s|,|\.|$)/iu, () => {
    out.attendance = 'in_person';
  });
  words.take(/\b(?:online[ -]only|only online|nur online|virtual only|only virtual|nur virtuell)\b/iu, () => {
    out.attendance = 'online';
  });
  // A clause of its own that is just "online" ("…, online, …"); "online marketing" stays in the question.
  words.take(/(?<=^|,)\s*(?:online|virtual|virtuell|remote)\s*(?=,|$)/iu, () => {
    out.attendance = 'online';
  });

  // "next two weeks", "in the next 10 days", "coming month", "in den nächsten 14 Tagen", "nächste Woche"
  words.take(
    new RegExp(
      String.raw`\b(?:(?:in|for|over|during|within)\s+)?(?:the\s+)?(?:next|coming|in den|für die|während der)?\s*(?:nächsten|kommenden|next|coming|nächste)\s+(\d+|${NUMBER_WORDS}|few)?\s*(days?|weeks?|months?|tage?n?|wochen?|monate?n?)\b`,
      'iu',
    ),
    (m) => {
      const n = m[1]?.toLowerCase() === 'few' ? 3 : numberOf(m[1]);
      if (n === null || out.window) return false;
      const unit = m[2]!.toLowerCase();
      const per = /^(?:week|woche)/.test(unit) ? 7 : /^(?:month|monat)/.test(unit) ? 30 : 1;
      out.window = { next_days: Math.min(366, n * per) };
      return true;
    },
  );
  // "between 1 Dec and 15 Dec", "from December 1 to 15", "zwischen dem 1. und 15. Dezember", "vom 1. bis 15.12."
  words.take(
    /\b(?:between|zwischen(?:\s+dem)?)\s+(.+?)\s+(?:and|und(?:\s+dem)?)\s+(.+?)(?=,|;|$)|\b(?:from|vom)\s+(.+?)\s+(?:to|until|till|bis(?:\s+zum)?)\s+(.+?)(?=,|;|$)/iu,
    (m) => {
      const window = dateRange(m[1] ?? m[3]!, m[2] ?? m[4]!, now);
      if (!window || out.window) return false;
      out.window = window;
      return true;
    },
  );

  // "no crypto", "without blockchain or web3", "excluding workshops", "ohne Krypto", "keine Workshops"
  words.take(/\b(?:but\s+|aber\s+)?(?:not|no|without|excluding|except|exclude|ohne|außer|keine?n?)\s+([^,.;]+)/iu, (m) => {
    const excluded = m[1]!
      .split(/\s*(?:,|\/|\bor\b|\band\b|\boder\b|\bund\b)\s*/iu)
      .map((w) => w.replace(/\s+(?:events?|meetups?|talks?|stuff|things|topics|veranstaltungen|themen|termine)$/iu, '').trim())
      .filter((w) => w.length > 0 && w.length <= 60);
    if (!excluded.length) return false;
    out.exclude.push(...excluded);
    return true;
  });
  return out;
}

const parsers = [chrono.en.casual, chrono.de.casual];

/** A day of the sentence, in the coming year: its calendar date, YYYY-MM-DD (no zone involved). */
function dayOf(text: string, now: Date, like?: { month: number; year: number }): { ymd: string; month: number; year: number } | null {
  const bare = /^(\d{1,2})\.?$/.exec(text.trim());
  if (bare && like) return { month: like.month, year: like.year, ymd: ymd(like.year, like.month, Number(bare[1])) };
  for (const parser of parsers) {
    const [r] = parser.parse(text, now, { forwardDate: true });
    if (r?.start.isCertain('day') && r.start.isCertain('month')) {
      const year = r.start.get('year')!;
      const month = r.start.get('month')!;
      return { ymd: ymd(year, month, r.start.get('day')!), month, year };
    }
  }
  return null;
}

const ymd = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

function dateRange(fromText: string, toText: string, now: Date): DateWindow | null {
  const to = dayOf(toText, now);
  if (!to) return null;
  const from = dayOf(fromText, now, to);
  if (!from) return null;
  // "from 20 December to 5 January": the end is in the year after.
  const end = from.ymd > to.ymd ? `${to.year + 1}${to.ymd.slice(4)}` : to.ymd;
  return { from: from.ymd, to: end };
}
