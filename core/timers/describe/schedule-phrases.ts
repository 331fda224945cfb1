import * as chrono from 'chrono-node';
import { type ScheduleType, type Weekday, WEEKDAYS } from '../../contract/schedule-values';
import { TWO_TIMES, TWO_WEEKDAYS } from './refusals';
import type { Words } from './words';

export interface SchedulePhrases {
  scheduleType: ScheduleType | null;
  weekday: Weekday | null;
  /** HH:MM, 24 h. */
  time: string | null;
  notes: string[];
  refusal: string | null;
}

const EN = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const EN_SHORT = ['mon', 'tues?', 'wed', 'thu(?:rs?)?', 'fri', 'sat', 'sun'];
const DE = ['montag', 'dienstag', 'mittwoch', 'donnerstag', 'freitag', 'samstag', 'sonntag'];

// "every Friday", "on Mondays", "Fridays", "on Mon", "jeden Montag", "am Freitag", "montags"
const WEEKDAY_PHRASES: { pattern: RegExp; day: number }[] = WEEKDAYS.flatMap((_, i) => [
  { pattern: new RegExp(String.raw`\b(?:(?:every|each|on)\s+)?${EN[i]}s?\b`, 'iu'), day: i },
  { pattern: new RegExp(String.raw`\b(?:every|each|on)\s+${EN_SHORT[i]}\.?(?=\s|,|$)`, 'iu'), day: i },
  { pattern: new RegExp(String.raw`\b(?:(?:jeden|am|immer)\s+)?${DE[i]}s?\b`, 'iu'), day: i },
]);

const DAILY = /\b(?:every\s?day|daily|each day|once a day|täglich|jeden tag|einmal am tag)\b/iu;
const WEEKLY = /\b(?:weekly|every week|each week|once a week|wöchentlich|jede woche|einmal (?:pro|die|in der) woche)\b/iu;
const NOON = /\b(?:(?:at|um)\s+)?(?:noon|midday|mittags?|zu mittag)\b/iu;
const MIDNIGHT = /\b(?:(?:at|um)\s+)?(?:midnight|mitternacht)\b/iu;

const clock = (h: number, m: number) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;

/** The schedule a sentence states (English or German), each phrase taken out of `words`. */
export function schedulePhrases(words: Words, now: Date): SchedulePhrases {
  const out: SchedulePhrases = { scheduleType: null, weekday: null, time: null, notes: [], refusal: null };
  const days = new Map<number, string>();
  for (const { pattern, day } of WEEKDAY_PHRASES) {
    words.take(pattern, (m) => {
      days.set(day, days.get(day) ?? m[0].trim());
    });
  }
  if (days.size > 1) return { ...out, refusal: TWO_WEEKDAYS([...days.values()]) };
  if (days.size === 1) {
    out.scheduleType = 'weekly';
    out.weekday = WEEKDAYS[[...days.keys()][0]!]!;
  }
  let daily = false;
  words.take(DAILY, () => {
    daily = true;
  });
  let weekly = false;
  words.take(WEEKLY, () => {
    weekly = true;
  });
  if (!out.scheduleType && daily) out.scheduleType = 'daily';
  if (!out.scheduleType && weekly) {
    out.scheduleType = 'weekly';
    out.weekday = 'Monday';
    out.notes.push('No weekday was said: Monday is filled in. Change it if you like.');
  }

  const times = new Map<string, string>();
  words.take(NOON, (m) => {
    times.set('12:00', m[0].trim());
  });
  words.take(MIDNIGHT, (m) => {
    times.set('00:00', m[0].trim());
  });
  // Both languages' readings of the rest; where they overlap, the longer reading wins.
  const found = [chrono.en.casual, chrono.de.casual]
    .flatMap((p) => p.parse(words.rest, now))
    .filter((r) => r.start.isCertain('hour'))
    .sort((a, b) => b.text.length - a.text.length);
  const kept: typeof found = [];
  for (const r of found) {
    if (kept.some((k) => r.index < k.index + k.text.length && k.index < r.index + r.text.length)) continue;
    kept.push(r);
  }
  for (const r of kept) {
    const hour = r.start.get('hour')!;
    const time = clock(hour, r.start.get('minute') ?? 0);
    times.set(time, times.get(time) ?? r.text.trim());
    if (!r.start.isCertain('meridiem') && hour >= 1 && hour <= 11 && !/[:.]\d\d/.test(r.text) && !/\buhr\b/i.test(r.text)) {
      out.notes.push(`“${r.text.trim()}” is read as ${time} in the morning; write “${hour} pm” or “${hour + 12}:00” for the evening.`);
    }
    if (!out.weekday && r.start.isCertain('weekday')) {
      out.scheduleType = 'weekly';
      out.weekday = WEEKDAYS[(r.start.get('weekday')! + 6) % 7]!;
    }
  }
  if (times.size > 1) return { ...out, refusal: TWO_TIMES([...times.values()]) };
  for (const r of kept.sort((a, b) => b.index - a.index)) words.cut(r.index, r.index + r.text.length);
  out.time = [...times.keys()][0] ?? null;
  if (out.scheduleType && !out.time) out.notes.push('No time was said: choose one in the form.');
  return out;
}
