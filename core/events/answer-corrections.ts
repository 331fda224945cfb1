import type { AnswerCorrection } from '../contract/answer-correction';
import type { Event } from '../contract/event';
import { formatDay, momentText, type Wall } from '../time/date-words';

/*
 * Where an answer's text states a date its checked events contradict (docs/decisions/checked-events.md). The answer
 * stays as Gemini wrote it; this reads it with the events' corrections (each corrected event keeps the model's
 * start in `verification.model_starts_at`) and finds that start as the answer writes it: ISO ("2026-12-16"),
 * words ("Wed 16 Dec", "Wednesday, 16 December 2026", "December 16th"), or "16.12.2026", with its time when
 * written beside it ("2026-12-16, 21:00", "December 16 at 9 pm"). Pure and browser-safe: the page, the api and
 * MCP mark the same places.
 */

const MONTH_WORDS = [
  'jan(?:uary)?',
  'feb(?:ruary)?',
  'mar(?:ch)?',
  'apr(?:il)?',
  'may',
  'june?',
  'july?',
  'aug(?:ust)?',
  'sep(?:t(?:ember)?)?',
  'oct(?:ober)?',
  'nov(?:ember)?',
  'dec(?:ember)?',
];
const WEEKDAY_WORDS = [
  'sun(?:day)?',
  'mon(?:day)?',
  'tue(?:s(?:day)?)?',
  'wed(?:nesday)?',
  'thu(?:r(?:s(?:day)?)?)?',
  'fri(?:day)?',
  'sat(?:urday)?',
];

/** A wall clock written in an ISO 8601 string as it stands (its own offset), without the time for a date alone. */
interface Written extends Pick<Wall, 'y' | 'mo' | 'd'> {
  time: Pick<Wall, 'h' | 'mi'> | null;
}

function written(iso: string): Written | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(iso);
  if (!m) return null;
  const time = m[4] === undefined ? null : { h: Number(m[4]), mi: Number(m[5]) };
  return { y: Number(m[1]), mo: Number(m[2]), d: Number(m[3]), time };
}

const pad = (n: number) => String(n).padStart(2, '0');

function weekdayOf({ y, mo, d }: Written): number {
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d);
  return day.getUTCDay();
}

/** The ways an answer writes that day, as one pattern (no groups of its own). */
function dayPattern(w: Written): string {
  const day = `0?${w.d}(?:st|nd|rd|th)?`;
  const month = MONTH_WORDS[w.mo - 1]!;
  const year = `(?:,?\\s+${w.y})?`;
  const weekday = `(?:${WEEKDAY_WORDS[weekdayOf(w)]}\\.?,?\\s+(?:the\\s+)?)?`;
  const words = `${weekday}(?:${day}\\s+(?:of\\s+)?${month}\\.?${year}|${month}\\.?\\s+${day}${year})`;
  return `(?:${w.y}-${pad(w.mo)}-${pad(w.d)}|0?${w.d}\\.0?${w.mo}\\.(?:${w.y})?|${words})`;
}

/** The ways an answer writes a time of day right after a date: ", 21:00", " at 9 pm", "T21:00". */
function timePattern({ h, mi }: Pick<Wall, 'h' | 'mi'>): string {
  const twelve = h % 12 || 12;
  const meridiem = h < 12 ? 'a\\.?m\\.?' : 'p\\.?m\\.?';
  const clock = `(?:0?${h}[:.]${pad(mi)}(?!\\s*[ap]\\.?m)|${twelve}(?:[:.]${pad(mi)})?\\s*${meridiem})`;
  return `(?:T|,?\\s*(?:at\\s+|from\\s+|·\\s*|-\\s*)?)${clock}`;
}

/** Where each event's title first stands in the answer, in the answer's order. */
function titlePlaces(answer: string, events: Event[]): { key: string; at: number }[] {
  const lower = answer.toLowerCase();
  return events
    .map((e) => ({ key: e.key, at: e.title.trim() ? lower.indexOf(e.title.trim().toLowerCase()) : -1 }))
    .filter((p) => p.at >= 0)
    .sort((a, b) => a.at - b.at);
}

/**
 * The part of the answer about one event: from its title to the next event's title; without its title in the
 * answer, everything outside the other events' parts.
 */
function partsOf(key: string, places: { key: string; at: number }[], length: number): [number, number][] {
  const own = places.findIndex((p) => p.key === key);
  if (own >= 0) return [[places[own]!.at, places[own + 1]?.at ?? length]];
  const before = places[0]?.at ?? length;
  return [[0, before]];
}

/** The checked start as people read it, in the clock the page wrote it in: 'Tue 15 Dec 2026, 19:00'. */
function checkedText(e: Event, w: Written): string {
  if (e.all_day || !w.time) return formatDay(e.starts_at!);
  return momentText({ ...w, ...w.time }, '24h');
}

/** Every date in `answer` that a correction of `events` contradicts, in the answer's order, none overlapping. */
export function answerCorrections(answer: string, events: Event[]): AnswerCorrection[] {
  const places = titlePlaces(answer, events);
  const found: AnswerCorrection[] = [];
  for (const e of events) {
    const v = e.verification;
    if (v?.status !== 'corrected' || !v.model_starts_at || !e.starts_at) continue;
    const said = written(v.model_starts_at);
    const checked = written(e.starts_at);
    if (!said || !checked) continue;
    const otherDay = said.y !== checked.y || said.mo !== checked.mo || said.d !== checked.d;
    const otherTime = !e.all_day && said.time !== null && (said.time.h !== checked.time?.h || said.time.mi !== checked.time?.mi);
    if (!otherDay && !otherTime) continue;
    const time = said.time && !e.all_day ? `(?:${timePattern(said.time)})` : null;
    // A day alone is contradicted only when the day is another; the same day at another time needs its time.
    const tail = time ? (otherDay ? `${time}?` : time) : '';
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${dayPattern(said)}${tail}(?![\\p{L}\\p{N}])`, 'giu');
    for (const [from, to] of partsOf(e.key, places, answer.length)) {
      pattern.lastIndex = from;
      for (let m = pattern.exec(answer); m && m.index < to; m = pattern.exec(answer)) {
        found.push({
          start: m.index,
          end: m.index + m[0].length,
          said: m[0],
          checked: checkedText(e, checked),
          starts_at: e.starts_at,
          event_key: e.key,
        });
      }
    }
  }
  found.sort((a, b) => a.start - b.start);
  const kept: AnswerCorrection[] = [];
  for (const c of found) if (c.start >= (kept.at(-1)?.end ?? 0)) kept.push(c);
  return kept;
}

/** The answer with each contradicted date marked where it stands: '2026-12-16, 21:00 [corrected: Tue 15 Dec 2026, 19:00]'. */
export function markedAnswer(answer: string, corrections: AnswerCorrection[]): string {
  let out = '';
  let at = 0;
  for (const c of corrections) {
    out += `${answer.slice(at, c.end)} ${correctionNote(c)}`;
    at = c.end;
  }
  return out + answer.slice(at);
}

/** The words put beside a contradicted date: '[corrected: Tue 15 Dec 2026, 19:00]'. */
export const correctionNote = (c: Pick<AnswerCorrection, 'checked'>) => `[corrected: ${c.checked}]`;
