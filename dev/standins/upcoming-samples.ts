import { readFileSync } from 'node:fs';

/**
 * The two fixed sample sites (sites/berlin-ai.html, sites/meetups.ics) as people see them under /sites/upcoming/:
 * every date moved by the same whole number of weeks, so the first event (28 May 2026) falls 7 to 13 days after
 * the day of the read. Whole weeks keep each event's weekday and the gaps between events; local times stay the
 * same in Berlin (the offset is written for the new day, summer or winter). The fixed files stay as they are:
 * the tests and the readers' unit tests are written against their exact dates.
 */

const DAY_MS = 86_400_000;
const FIRST_FIXED_DAY = Date.UTC(2026, 4, 28);
const ZONE = 'Europe/Berlin';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const fixed = (name: string) => readFileSync(new URL(`./sites/${name}`, import.meta.url), 'utf8');

/** How many days every fixed date moves on the UTC day of `now`. */
export function samplesShiftDays(now: number): number {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Math.ceil((today + 7 * DAY_MS - FIRST_FIXED_DAY) / (7 * DAY_MS)) * 7;
}

/** Berlin's offset ('+01:00' or '+02:00') at a local time of a day. */
function berlinOffset(day: string, time: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'longOffset' })
    .formatToParts(new Date(`${day}T${time}:00Z`))
    .find((p) => p.type === 'timeZoneName');
  const offset = name?.value.replace('GMT', '') ?? '';
  return offset === '' ? '+00:00' : offset;
}

/** The day-level arithmetic of one read: each fixed day as its moved day, and the ways the files write it. */
function mover(now: number) {
  const shift = samplesShiftDays(now) * DAY_MS;
  const day = (fixedDay: string) => new Date(Date.parse(`${fixedDay}T00:00:00Z`) + shift);
  const iso = (fixedDay: string) => day(fixedDay).toISOString().slice(0, 10);
  const human = (fixedDay: string) => {
    const d = day(fixedDay);
    return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  };
  /** A Berlin local time on the moved day, with its offset. */
  const local = (fixedDay: string, time: string) => `${iso(fixedDay)}T${time}:00${berlinOffset(iso(fixedDay), time)}`;
  /** The same Berlin local time on the moved day, as UTC ('…Z'). */
  const utc = (fixedDay: string, time: string) => new Date(local(fixedDay, time)).toISOString().replace('.000Z', 'Z');
  const zoneName = (fixedDay: string, time: string) => (berlinOffset(iso(fixedDay), time) === '+02:00' ? 'CEST' : 'CET');
  return { day, iso, human, local, utc, zoneName };
}

/** Each fixed text replaced everywhere; a fixed text that is missing is an error, so an edit of the file shows. */
function replaced(text: string, pairs: [string, string][]): string {
  let out = text;
  for (const [from, to] of pairs) {
    if (!out.includes(from)) throw new Error(`The fixed sample no longer contains ${JSON.stringify(from)}.`);
    out = out.replaceAll(from, to);
  }
  return out;
}

/** '18–19 June 2026', or across months '30 December 2026 – 1 January 2027', as the page writes a range. */
function rangeLabel(m: ReturnType<typeof mover>, from: string, to: string): string {
  const a = m.day(from);
  const b = m.day(to);
  if (a.getUTCMonth() === b.getUTCMonth() && a.getUTCFullYear() === b.getUTCFullYear()) {
    return `${a.getUTCDate()}&ndash;${b.getUTCDate()} ${MONTHS[b.getUTCMonth()]} ${b.getUTCFullYear()}`;
  }
  return `${m.human(from)} &ndash; ${m.human(to)}`;
}

export function upcomingBerlinAiPage(now = Date.now()): string {
  const m = mover(now);
  return replaced(fixed('berlin-ai.html'), [
    ['2026-06-18T09:00:00+02:00', m.local('2026-06-18', '09:00')],
    ['2026-06-19T18:00:00+02:00', m.local('2026-06-19', '18:00')],
    ['"2026-05-28T19:00"', `"${m.iso('2026-05-28')}T19:00"`],
    ['2026-06-03T17:00:00Z', m.utc('2026-06-03', '19:00')],
    ['2026-06-03T19:00:00Z', m.utc('2026-06-03', '21:00')],
    ['datetime="2026-06-18"', `datetime="${m.iso('2026-06-18')}"`],
    ['18&ndash;19 June 2026', rangeLabel(m, '2026-06-18', '2026-06-19')],
    ['28 May 2026, 19:00', `${m.human('2026-05-28')}, 19:00`],
    ['3 June 2026, 19:00 CEST', `${m.human('2026-06-03')}, 19:00 ${m.zoneName('2026-06-03', '19:00')}`],
  ]);
}

export function upcomingMeetupsIcs(now = Date.now()): string {
  const m = mover(now);
  const compact = (iso: string) => iso.replaceAll('-', '').replaceAll(':', '');
  return replaced(fixed('meetups.ics'), [
    ['TZID=Europe/Berlin:20260609T183000', `TZID=Europe/Berlin:${compact(m.iso('2026-06-09'))}T183000`],
    ['TZID=Europe/Berlin:20260609T210000', `TZID=Europe/Berlin:${compact(m.iso('2026-06-09'))}T210000`],
    ['DTSTART:20260616T170000Z', `DTSTART:${compact(m.utc('2026-06-16', '19:00'))}`],
    ['DTEND:20260616T190000Z', `DTEND:${compact(m.utc('2026-06-16', '21:00'))}`],
    ['VALUE=DATE:20260701', `VALUE=DATE:${compact(m.iso('2026-07-01'))}`],
    ['VALUE=DATE:20260703', `VALUE=DATE:${compact(m.iso('2026-07-03'))}`],
  ]);
}
