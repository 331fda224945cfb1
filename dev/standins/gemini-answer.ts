import { type ExtractedEvent, type GroundingSupport, groundedAnswer } from './grounded-answer';
import { meetupInWords } from './repeat-in-words';

export { groundedEvents } from './grounded-answer';

/** The stand-in's deterministic answers, derived from the prompt it received (see core/search/prompt.ts). */

export interface StandinAnswer {
  text: string;
  sources: { uri: string; title: string }[];
  /** groundingSupports: which answer segment each source supports (a grounded answer only). */
  supports?: GroundingSupport[];
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

/** `origin`: where the stand-in is reached, for the grounded answer's redirect links and pages. */
export function answerFor(prompt: string, origin: string): StandinAnswer {
  const website = /^WEBSITE: (\S+)/m.exec(prompt)?.[1];
  const question = /^QUESTION: (.*)$/m.exec(prompt)?.[1] ?? 'your question';
  if (website) {
    const events = promptEvents(prompt);
    const inWords = events.length === 0 ? meetupInWords(prompt) : null;
    if (inWords) {
      const { event } = inWords;
      const lines = [`I found 1 event on ${website}:`, '', event.title, `Date: ${inWords.when}`];
      lines.push(`Place: ${[event.venue, event.city].filter(Boolean).join(', ')}`, `Link: ${website}`, '');
      return { text: lines.join('\n'), sources: [] };
    }
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
  const grounded = groundedAnswer(prompt, origin);
  return { text: grounded.text, sources: grounded.sources, supports: grounded.supports };
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The reply to a structured-output request (`responseMimeType: application/json`): `{events}` from the prompt's
 * `EVENT n` blocks (start and end exactly as given) when it has any, else a meetup its website text states with
 * its repeat in words (dev/standins/repeat-in-words.ts), else the fixed grounded answer's events.
 */
export function extractionFor(prompt: string, origin: string): { events: ExtractedEvent[] } {
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
  if (/^WEBSITE: /m.test(prompt)) {
    const inWords = meetupInWords(prompt);
    return { events: inWords ? [inWords.event] : [] };
  }
  return { events: groundedAnswer(prompt, origin).events };
}

/**
 * The reply to a structured request that asks for the answer with its events (its schema has `answer`): the
 * answer the plain request gets, and the events the extraction would find in it, as one JSON text.
 */
export function answerWithEventsFor(prompt: string, origin: string): StandinAnswer {
  const answer = answerFor(prompt, origin);
  const text = JSON.stringify({ answer: answer.text, events: extractionFor(prompt, origin).events });
  // The supports' segments are the answer's lines; in the JSON they are the same words.
  return { text, sources: answer.sources, supports: answer.supports };
}

/** Splits an answer into line-sized pieces, the way a model streams a few tokens at a time. */
export function chunksOf(text: string): string[] {
  return text.split(/(?<=\n)/).filter(Boolean);
}
