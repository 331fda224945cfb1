/*
 * What a sentence may ask that no timer can do: a timer runs daily, or weekly on one weekday, at one time.
 * Each is refused with a sentence naming the words and what to write instead; nothing is bent to fit.
 */

const ONE_TIMER = 'A timer runs every day, or once a week on one weekday, at one time.';

interface Refusal {
  pattern: RegExp;
  message: (words: string) => string;
}

const REFUSALS: Refusal[] = [
  {
    pattern:
      /\b(?:twice|two times|three times|several times|\d+\s*(?:x|times))\s+(?:a|per|every|each)\s+(?:week|day|month)\b|\b(?:twice|three times) (?:weekly|daily)\b|\b(?:zweimal|dreimal|mehrmals|\d+\s*(?:x|mal))\s+(?:pro|die|in der|am|im|jede[n]?|täglich|wöchentlich)(?:\s+(?:woche|tag|monat))?\b/iu,
    message: (w) =>
      `“${w}” cannot be one timer. ${ONE_TIMER} Save one weekly timer per day you want (e.g. “every Tuesday at 9” and “every Friday at 9”), or choose “every day”.`,
  },
  {
    pattern:
      /\b(?:every|each|on)\s+weekdays?\b|\bweekdays\b|\b(?:monday|mon)\s*(?:to|through|till|until|-|–)\s*(?:friday|fri)\b|\bwerktags\b|\ban werktagen\b|\bjeden werktag\b|\bmontags?\s*(?:bis|-|–)\s*freitags?\b/iu,
    message: (w) => `“${w}” means five runs a week. ${ONE_TIMER} Choose “every day”, or one weekday such as “every Monday”.`,
  },
  {
    pattern: /\b(?:every|each|on)\s+weekends?\b|\bweekends\b|\b(?:am|jedes|an)\s+wochenenden?\b|\bwochenends\b/iu,
    message: (w) => `“${w}” means two days a week. ${ONE_TIMER} Choose “every Saturday” or “every Sunday”, or “every day”.`,
  },
  {
    pattern:
      /\b(?:every|each)\s+(?:\d+\s+)?(?:hours?|minutes?)\b|\bhourly\b|\bstündlich\b|\bjede\s+stunde\b|\balle\s+\d+\s+(?:stunden|minuten)\b/iu,
    message: (w) => `“${w}” is more often than a timer runs. ${ONE_TIMER}`,
  },
  {
    pattern:
      /\b(?:every|each)\s+(?:other|second|third|\d+|two|three|four)\s+(?:days?|weeks?)\b|\bfortnightly\b|\bbi-?weekly\b|\balle\s+(?:zwei|drei|vier|\d+)\s+(?:tage|wochen)\b|\bjede\s+zweite\s+woche\b|\bjeden\s+zweiten\s+tag\b/iu,
    message: (w) => `“${w}” is not a schedule a timer has. ${ONE_TIMER} Choose “every day” or one weekday each week.`,
  },
  {
    pattern: /\b(?:monthly|every month|each month|once a month|yearly|every year|monatlich|jeden monat|einmal im monat|jährlich)\b/iu,
    message: (w) =>
      `“${w}” is not a schedule a timer has. ${ONE_TIMER} Choose one weekday (e.g. “every Monday”), and a date window for the events.`,
  },
];

// "25:99", "um 26 Uhr", "13 pm": written as a time of day, but no clock shows it.
const CLOCK = /\b(\d{1,2}):(\d{2})\b|\b(\d{1,2})(?:\.(\d{2}))?\s*uhr\b|\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\b\.?/giu;

function impossibleTime(sentence: string): string | null {
  for (const m of sentence.matchAll(CLOCK)) {
    const hour = Number(m[1] ?? m[3] ?? m[5]);
    const minute = Number(m[2] ?? m[4] ?? m[6] ?? 0);
    const twelveHour = m[7] !== undefined;
    if (minute > 59 || (twelveHour ? hour < 1 || hour > 12 : hour > 23)) return m[0].trim();
  }
  return null;
}

/** The sentence saying why this sentence cannot be a timer, or null when nothing in it is refused. */
export function refusalFor(sentence: string): string | null {
  const time = impossibleTime(sentence);
  if (time) return `“${time}” is not a time of day. Write a time from 00:00 to 23:59, e.g. “at 20:00” or “at 8 pm”.`;
  for (const r of REFUSALS) {
    const match = r.pattern.exec(sentence);
    if (match) return r.message(match[0].trim());
  }
  return null;
}

/** Refused when two weekdays or two times are asked for: one timer has one of each. */
export const TWO_WEEKDAYS = (days: string[]) => `“${days.join('” and “')}” are two days. ${ONE_TIMER} Save one weekly timer for each day.`;
export const TWO_TIMES = (times: string[]) => `“${times.join('” and “')}” are two times. ${ONE_TIMER} Save one timer for each time.`;
