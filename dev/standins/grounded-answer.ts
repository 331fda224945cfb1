/**
 * The stand-in's grounded answer (no website), as Google's grounding gives it: chunks whose links are redirects
 * (`/grounding-api-redirect/…` on the stand-in, as `vertexaisearch.cloud.google.com` is for Google) to sample
 * pages that carry the events in their structured data, and supports naming which answer segment each cites.
 * The question steers it, so `make dev` and the tests can show every outcome of the event check:
 * - "wrong date": the meetup is stated a day and two hours late (the page corrects it), and an event the cited
 *   page does not list is named too (it stays unconfirmed);
 * - "robots": the cited pages are under a path the stand-in's robots.txt disallows;
 * - "private address": the meetup's grounding link redirects to a private address.
 */
export interface GroundedSource {
  uri: string;
  title: string;
}

export interface GroundingSupport {
  segment: { startIndex: number; endIndex: number; text: string };
  groundingChunkIndices: number[];
}

/** One event as the structured extraction call returns it (the JSON schema of core/events/model-extraction.ts). */
export interface ExtractedEvent {
  title: string;
  starts_at: string | null;
  ends_at: string | null;
  all_day: boolean;
  timezone: string | null;
  venue: string | null;
  city: string | null;
  online: boolean | null;
  url: string | null;
  status: 'scheduled' | 'moved' | 'cancelled';
  /** How it repeats, when the text says so (core/events/stated-repeat.ts); absent otherwise. */
  repeat?: {
    frequency: 'weekly' | 'monthly';
    interval: number;
    weekday: string;
    week_of_month: number | null;
    until: string | null;
  } | null;
}

export const UNLISTED_EVENT = 'Berlin AI Film Night';
const HOUR_MS = 3_600_000;

const question = (prompt: string) => /^QUESTION: (.*)$/m.exec(prompt)?.[1] ?? 'your question';

/** `2026-12-01T19:00:00+01:00` moved by `ms`, written in the same offset. */
function shifted(iso: string, ms: number): string {
  const offset = iso.slice(19);
  const sign = offset.startsWith('-') ? -1 : 1;
  const offsetMs = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;
  const local = new Date(Date.parse(iso) + ms + offsetMs).toISOString().slice(0, 19);
  return `${local}${offset}`;
}

/** The grounded answer's text, sources, supports and events for `prompt`, with links on the stand-in at `origin`. */
export function groundedAnswer(prompt: string, origin: string) {
  const q = question(prompt);
  const wrongDate = /wrong date/i.test(q);
  const pages = /robots/i.test(q) ? 'no-robots' : 'grounded';
  const { summit, meetup } = groundedEvents(prompt);
  const meetupStart = wrongDate ? shifted(meetup.startsAt, 26 * HOUR_MS) : meetup.startsAt;
  const meetupEnd = wrongDate ? shifted(meetup.endsAt, 26 * HOUR_MS) : meetup.endsAt;
  const summitPage = `${origin}/sites/${pages}/ai-summit-berlin.html`;
  const redirect = (target: string) => `${origin}/grounding-api-redirect/${pages === 'grounded' ? '' : `${pages}-`}${target}`;
  const sources: GroundedSource[] = [
    { uri: redirect('ai-summit-berlin'), title: 'AI Summit Berlin' },
    {
      uri: /private address/i.test(q) ? `${origin}/grounding-api-redirect/private` : redirect('berlin-ml-meetup'),
      title: 'Berlin Machine Learning Meetup',
    },
  ];
  const blocks: { lines: string[]; chunk: number }[] = [
    { lines: ['AI Summit Berlin', `Date: ${summit.label}`, 'Place: Estrel Congress Center, Berlin', `Link: ${summitPage}`], chunk: 0 },
    {
      lines: [
        'Berlin Machine Learning Meetup',
        `Date: ${wrongDate ? `${meetupStart.slice(0, 10)}, ${meetupStart.slice(11, 16)} to ${meetupEnd.slice(11, 16)}` : meetup.label}`,
        'Place: Factory Berlin',
      ],
      chunk: 1,
    },
  ];
  const events: ExtractedEvent[] = [
    {
      title: 'AI Summit Berlin',
      starts_at: summit.startsAt,
      ends_at: summit.endsAt,
      all_day: true,
      timezone: 'Europe/Berlin',
      venue: 'Estrel Congress Center',
      city: 'Berlin',
      online: false,
      url: summitPage,
      status: 'scheduled',
    },
    {
      title: 'Berlin Machine Learning Meetup',
      starts_at: meetupStart,
      ends_at: meetupEnd,
      all_day: false,
      timezone: meetup.timezone,
      venue: 'Factory Berlin',
      city: 'Berlin',
      online: false,
      url: null,
      status: 'scheduled',
    },
  ];
  if (wrongDate) {
    const filmStart = shifted(meetup.startsAt, 48 * HOUR_MS);
    blocks.push({
      lines: [UNLISTED_EVENT, `Date: ${filmStart.slice(0, 10)}, ${filmStart.slice(11, 16)}`, 'Place: Factory Berlin'],
      chunk: 1,
    });
    events.push({ ...events[1]!, title: UNLISTED_EVENT, starts_at: filmStart, ends_at: null });
  }
  let text = `Here are events that match "${q}":\n\n`;
  const supports: GroundingSupport[] = [];
  for (const block of blocks) {
    const segment = block.lines.join('\n');
    supports.push({
      segment: { startIndex: text.length, endIndex: text.length + segment.length, text: segment },
      groundingChunkIndices: [block.chunk],
    });
    text += `${segment}\n\n`;
  }
  return { text, sources, supports, events };
}

const DAY_MS = 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const iso = (d: Date) => d.toISOString().slice(0, 10);
const human = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;

/** Today's date in Berlin, where the events are, as a UTC midnight. */
function berlinToday(): Date {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date()).split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!));
}

/**
 * The prompt's "Today is Wednesday, 14 May 2025." as a UTC midnight; Berlin's today when it has none. A date
 * at most a day from Berlin's is today in the searcher's zone: the events are dated from Berlin's today then,
 * so the answer and the pages it cites (which have no prompt) name the same days at any hour.
 */
function todayOf(prompt: string): Date {
  const today = berlinToday();
  const m = /Today is (?:\w+, )?(\d{1,2}) (\w+) (\d{4})/.exec(prompt);
  const month = m ? MONTHS.indexOf(m[2]!) : -1;
  if (!m || month < 0) return today;
  const said = Date.UTC(Number(m[3]), month, Number(m[1]));
  return Math.abs(said - today.getTime()) <= DAY_MS ? today : new Date(said);
}

/** "+02:00" for Europe/Berlin on that day at that local time. */
function offsetIn(timeZone: string, localDay: Date, hour: number): string {
  const at = new Date(localDay.getTime() + hour * 3_600_000);
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  const offset = name?.value.replace('GMT', '') ?? '';
  return offset === '' ? '+00:00' : offset;
}

/**
 * The fixed grounded answer's two events with concrete dates after the prompt's "today", so they stay in the
 * future whenever the test runs: a two-day summit a month ahead, and a meetup on a Tuesday evening next week.
 */
export function groundedEvents(prompt: string) {
  const today = todayOf(prompt);
  const summitStart = new Date(today.getTime() + 30 * DAY_MS);
  const summitEnd = new Date(summitStart.getTime() + DAY_MS);
  // The first Tuesday at least a week ahead.
  let meetupDay = new Date(today.getTime() + 7 * DAY_MS);
  while (meetupDay.getUTCDay() !== 2) meetupDay = new Date(meetupDay.getTime() + DAY_MS);
  const zone = 'Europe/Berlin';
  const offset = offsetIn(zone, meetupDay, 19);
  return {
    summit: {
      label: `${human(summitStart)} to ${human(summitEnd)}`,
      startsAt: iso(summitStart),
      endsAt: iso(summitEnd),
    },
    meetup: {
      label: `Tuesday, ${human(meetupDay)}, 19:00 to 21:00 (then every second Tuesday)`,
      startsAt: `${iso(meetupDay)}T19:00:00${offset}`,
      endsAt: `${iso(meetupDay)}T21:00:00${offset}`,
      timezone: zone,
    },
  };
}
