/** The stand-in's deterministic answers, derived from the prompt it received (see core/search/prompt.ts). */

export interface StandinAnswer {
  text: string;
  sources: { uri: string; title: string }[];
}

interface PromptEvent {
  [field: string]: string;
}

/** The `EVENT n` blocks of the prompt's website facts, as field maps. */
export function promptEvents(prompt: string): PromptEvent[] {
  const events: PromptEvent[] = [];
  let current: PromptEvent | null = null;
  for (const line of prompt.split('\n')) {
    if (/^EVENT \d+$/.test(line.trim())) {
      current = {};
      events.push(current);
    } else if (current && /^[a-z]+: /.test(line)) {
      const i = line.indexOf(': ');
      current[line.slice(0, i)] = line.slice(i + 2);
    } else {
      current = null;
    }
  }
  return events;
}

export function answerFor(prompt: string): StandinAnswer {
  const website = /^WEBSITE: (\S+)/m.exec(prompt)?.[1];
  const question = /^QUESTION: (.*)$/m.exec(prompt)?.[1] ?? 'your question';
  if (website) {
    const events = promptEvents(prompt);
    if (events.length === 0) {
      return {
        text: `I read ${website} but it lists no structured events.\nThe page text did not name a specific event matching "${question}".\nTry the page that lists the events directly.\n`,
        sources: [],
      };
    }
    const lines = [`I found ${events.length} events on ${website}:`, ''];
    for (const e of events) {
      lines.push(e.name ?? 'Untitled event');
      lines.push(`Date: ${e.start ?? 'not given'}${e.end ? ` to ${e.end}` : ''}`);
      lines.push(`Place: ${e.place ?? 'not given'}`);
      lines.push(`Link: ${e.link ?? website}`);
      lines.push('');
    }
    return { text: lines.join('\n'), sources: [] };
  }
  const { summit, meetup } = groundedEvents(prompt);
  return {
    text: [
      `Here are events that match "${question}":`,
      '',
      'AI Summit Berlin',
      `Date: ${summit.label}`,
      'Place: Estrel Congress Center, Berlin',
      'Link: https://example.com/ai-summit-berlin',
      '',
      'Berlin Machine Learning Meetup',
      `Date: ${meetup.label}`,
      'Place: Factory Berlin',
      'Link: https://example.com/berlin-ml-meetup',
      '',
    ].join('\n'),
    sources: [
      { uri: 'https://example.com/ai-summit-berlin', title: 'AI Summit Berlin' },
      { uri: 'https://example.com/berlin-ml-meetup', title: 'Berlin Machine Learning Meetup' },
    ],
  };
}

const DAY_MS = 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const iso = (d: Date) => d.toISOString().slice(0, 10);
const human = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;

/** The prompt's "Today is Wednesday, 14 May 2025." as a UTC midnight; today's date when it has none. */
function todayOf(prompt: string): Date {
  const m = /Today is (?:\w+, )?(\d{1,2}) (\w+) (\d{4})/.exec(prompt);
  const month = m ? MONTHS.indexOf(m[2]!) : -1;
  if (m && month >= 0) return new Date(Date.UTC(Number(m[3]), month, Number(m[1])));
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
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
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The reply to a structured-output request (`responseMimeType: application/json`): `{events}` from the prompt's
 * `EVENT n` blocks (start and end exactly as given) when it has any, else the fixed grounded answer's events.
 */
export function extractionFor(prompt: string): { events: ExtractedEvent[] } {
  const blocks = promptEvents(prompt);
  if (blocks.length > 0) {
    return {
      events: blocks.map((e) => {
        const start = e.start ?? null;
        const place = e.place ?? null;
        return {
          title: e.name ?? 'Untitled event',
          starts_at: start,
          ends_at: e.end ?? null,
          all_day: start !== null && DATE_ONLY.test(start),
          timezone: null,
          venue: place,
          city: place?.includes(',') ? place.split(',').at(-1)!.trim() : null,
          online: null,
          url: e.link ?? null,
          status: 'scheduled',
        };
      }),
    };
  }
  if (/^WEBSITE: /m.test(prompt)) return { events: [] };
  const { summit, meetup } = groundedEvents(prompt);
  return {
    events: [
      {
        title: 'AI Summit Berlin',
        starts_at: summit.startsAt,
        ends_at: summit.endsAt,
        all_day: true,
        timezone: 'Europe/Berlin',
        venue: 'Estrel Congress Center',
        city: 'Berlin',
        online: false,
        url: 'https://example.com/ai-summit-berlin',
        status: 'scheduled',
      },
      {
        title: 'Berlin Machine Learning Meetup',
        starts_at: meetup.startsAt,
        ends_at: meetup.endsAt,
        all_day: false,
        timezone: meetup.timezone,
        venue: 'Factory Berlin',
        city: 'Berlin',
        online: false,
        url: 'https://example.com/berlin-ml-meetup',
        status: 'scheduled',
      },
    ],
  };
}

/**
 * The reply to a structured request that asks for the answer with its events (its schema has `answer`): the
 * answer the plain request gets, and the events the extraction would find in it, as one JSON text.
 */
export function answerWithEventsFor(prompt: string): StandinAnswer {
  const answer = answerFor(prompt);
  return { text: JSON.stringify({ answer: answer.text, events: extractionFor(prompt).events }), sources: answer.sources };
}

/** Splits an answer into line-sized pieces, the way a model streams a few tokens at a time. */
export function chunksOf(text: string): string[] {
  return text.split(/(?<=\n)/).filter(Boolean);
}
