import type { ExtractedEvent } from './grounded-answer';

/**
 * A meetup page that says how its meetup repeats in words only (no structured data), dated from today, and the
 * stand-in's reading of such words from a prompt's website text: what a real model does when it reads
 * "…, then every second Tuesday" or "… of the month" (the answer says it; the extraction states it in the closed form of
 * core/events/stated-repeat.ts). The reading knows only this sentence's shape; other pages get no events.
 */

const DAY_MS = 86_400_000;
const ZONE = 'Europe/Berlin';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const ORDINALS = ['', 'second', 'third', 'fourth'];

/** The sample's first meetup: the first Tuesday at least a week after Berlin's today, as a UTC midnight. */
function firstMeetupDay(now: Date): Date {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(now).split('-').map(Number);
  let day = new Date(Date.UTC(y!, m! - 1, d!) + 7 * DAY_MS);
  while (day.getUTCDay() !== 2) day = new Date(day.getTime() + DAY_MS);
  return day;
}

/** The page, served as /sites/rust-meetup.html. */
export function repeatInWordsPage(now = new Date()): string {
  const day = firstMeetupDay(now);
  const date = `${DAYS[day.getUTCDay()]}, ${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]} ${day.getUTCFullYear()}`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rust Meetup Berlin</title></head><body><main>' +
    '<h1>Rust Meetup Berlin</h1><p>Talks and hacking for everyone who writes Rust, or wants to.</p>' +
    `<p>Rust Meetup Berlin: ${date}, 19:00 to 21:00, c-base, Berlin, then every second Tuesday.</p>` +
    '<p>Free entry; bring a laptop if you like.</p></main></body></html>'
  );
}

const SENTENCE = new RegExp(
  `^(.{3,80}?): (${DAYS.join('|')}), (\\d{1,2}) (${MONTHS.join('|')}) (\\d{4}), (\\d{2}:\\d{2}) to (\\d{2}:\\d{2}), ` +
    `(.{1,80}?), then every (?:(second|third|fourth) )?(${DAYS.join('|')})( of the month)?\\.$`,
  'm',
);

/** The meetup a prompt's website text states with its repeat in words, or null when it states none. */
export function meetupInWords(prompt: string): { event: ExtractedEvent; when: string; repeatWords: string } | null {
  const text = prompt.split(/^WEBSITE TEXT FROM \S+:$/m)[1]?.split(/^END OF WEBSITE FACTS$/m)[0];
  const m = text ? SENTENCE.exec(text) : null;
  if (!m) return null;
  const [, title, weekday, d, month, y, from, to, place, nth, repeatDay, ofTheMonth] = m;
  const date = `${y}-${String(MONTHS.indexOf(month!) + 1).padStart(2, '0')}-${d!.padStart(2, '0')}`;
  const offset = (time: string) => {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'longOffset' })
      .formatToParts(new Date(`${date}T${time}:00Z`))
      .find((p) => p.type === 'timeZoneName');
    return name?.value.replace('GMT', '') || '+00:00';
  };
  const [venue, city] = place!.split(/, (?=[^,]+$)/);
  const every = `every ${nth ? `${nth} ` : ''}${repeatDay}${ofTheMonth ?? ''}`;
  const ordinal = nth ? ORDINALS.indexOf(nth) + 1 : 1;
  return {
    when: `${weekday}, ${d} ${month} ${y}, ${from} to ${to}, and then ${every}`,
    repeatWords: every,
    event: {
      title: title!,
      starts_at: `${date}T${from}:00${offset(from!)}`,
      ends_at: `${date}T${to}:00${offset(to!)}`,
      all_day: false,
      timezone: ZONE,
      venue: venue ?? null,
      city: city ?? null,
      online: false,
      url: null,
      status: 'scheduled',
      // "every second Tuesday" is every other week; "every second Tuesday of the month" a monthly one.
      repeat: {
        frequency: ofTheMonth ? 'monthly' : 'weekly',
        interval: ofTheMonth ? 1 : ordinal,
        weekday: repeatDay!.toLowerCase(),
        week_of_month: ofTheMonth ? ordinal : null,
        until: null,
      },
    },
  };
}
