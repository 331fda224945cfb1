import { ruleOf } from './recurrence';

const DAYS: Record<string, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};
const ORDINALS = ['', 'first', 'second', 'third', 'fourth', 'fifth'];

const list = (words: string[]) => (words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);
const nth = (n: number) => (n === -1 ? 'last' : (ORDINALS[n] ?? null));

/** "Tuesday", "second Tuesday", "last Friday": a BYDAY part; null for one these words do not say. */
function dayWords(byday: string): string | null {
  const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(byday);
  if (!m) return null;
  if (!m[1]) return DAYS[m[2]!]!;
  const which = nth(Number(m[1]));
  return which ? `${which} ${DAYS[m[2]!]}` : null;
}

/**
 * How a series repeats, in the words a card shows ("every second Tuesday", "every month on the first Monday"),
 * from its RRULE; null for a rule these words do not say exactly (then nothing is said rather than something
 * wrong). Its end (COUNT, UNTIL) is not said: the occurrences shown end where it does.
 */
export function repeatWords(rrule: string | undefined): string | null {
  const rule = ruleOf(rrule);
  if (!rule) return null;
  const parts = rule.parts as Record<string, (string | number)[] | undefined>;
  const others = Object.keys(parts).filter((k) => !['BYDAY', 'BYMONTHDAY', 'BYSETPOS', 'WKST'].includes(k) && parts[k]?.length);
  if (others.length) return null;
  const interval = rule.interval ?? 1;
  const every = interval === 1 ? 'every' : nth(interval) ? `every ${nth(interval)}` : null;
  const byday = (parts.BYDAY ?? []).map(String);
  const setpos = (parts.BYSETPOS ?? []).map(Number);
  const monthday = (parts.BYMONTHDAY ?? []).map(Number);
  if (!every) return null;
  switch (rule.freq) {
    case 'DAILY':
      return byday.length || monthday.length || setpos.length ? null : `${every} day`;
    case 'WEEKLY': {
      if (monthday.length || setpos.length) return null;
      const days = byday.map(dayWords);
      if (days.some((d) => d === null || d.includes(' '))) return null;
      return days.length ? `${every} ${list(days as string[])}` : `${every} week`;
    }
    case 'MONTHLY': {
      const month = every === 'every' ? 'every month' : `${every} month`;
      if (monthday.length === 1 && !byday.length && !setpos.length && monthday[0]! > 0) return `${month} on day ${monthday[0]}`;
      if (monthday.length) return null;
      if (byday.length === 1 && setpos.length === 1 && !/\d/.test(byday[0]!)) byday[0] = `${setpos[0]}${byday[0]}`;
      else if (setpos.length) return null;
      const days = byday.map(dayWords);
      if (!days.length) return month;
      if (days.some((d) => d === null || !d.includes(' '))) return null;
      return `${month} on the ${list(days as string[])}`;
    }
    case 'YEARLY':
      return byday.length || monthday.length || setpos.length ? null : every === 'every' ? 'every year' : `${every} year`;
    default:
      return null;
  }
}
