import { cachedFormat } from '../time/format-cache';
import type { EventFact } from '../website/event-fact';
import type { WebsiteFacts } from '../website/extract';

export interface PromptInput {
  question: string;
  timezone: string;
  now: Date;
  website: WebsiteFacts | null;
}

/** The date as the user sees it, e.g. 'Wednesday, 14 May 2025'. */
export function todayIn(timezone: string, now: Date): string {
  const format = cachedFormat(
    `today|${timezone}`,
    () => new Intl.DateTimeFormat('en-GB', { timeZone: timezone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
  );
  if (!format) throw new RangeError(`Invalid time zone specified: ${timezone}`);
  return format.format(now);
}

/**
 * How many of the website's structured events the prompt lists. A website reading keeps thousands; the
 * prompt names how many more there are, so the answer never takes the list for the whole site.
 */
export const PROMPT_EVENT_LIMIT = 50;

/**
 * The events the prompt lists, in the website's order: those not over (or recurring, or undated) first, then
 * the most recent past ones. `day` is today's date (YYYY-MM-DD) in UTC, minus a day for zones behind it.
 */
export function promptEvents(events: EventFact[], now: Date): EventFact[] {
  if (events.length <= PROMPT_EVENT_LIMIT) return events;
  const day = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const current = (e: EventFact) => !!e.recurrence || !(e.endAt ?? e.startAt) || (e.endAt ?? e.startAt)!.slice(0, 10) >= day;
  const chosen = new Set(events.filter(current).slice(0, PROMPT_EVENT_LIMIT));
  for (let i = events.length - 1; i >= 0 && chosen.size < PROMPT_EVENT_LIMIT; i--) chosen.add(events[i]!);
  return events.filter((e) => chosen.has(e));
}

/** One event as prompt lines; the `EVENT n` / `key: value` layout is stable so answers can cite it. */
export function eventLines(event: EventFact, index: number): string {
  const fields: [string, string | undefined][] = [
    ['name', event.name],
    ['start', event.start],
    ['end', event.end],
    ['place', event.place],
    ['link', event.url],
    ['organizer', event.organizer],
    ['offers', event.offers],
    ['description', event.description],
  ];
  return [`EVENT ${index + 1}`, ...fields.filter(([, v]) => v).map(([k, v]) => `${k}: ${v}`)].join('\n');
}

/**
 * Google bills each search query a grounded answer runs (Gemini 3), and they are most of what a search costs
 * (docs/decisions/gemini-and-cost.md): the model is asked for one query, with the year for dated events, when one suffices.
 */
export const FEW_SEARCHES = 'Run as few Google searches as you can: one search, with the year in it, is usually enough.';

/** The user turn: today's date and time zone, the question, and the website's facts with their source URL. */
export function buildPrompt({ question, timezone, now, website }: PromptInput): string {
  const parts = [
    `Today is ${todayIn(timezone, now)}. The user's time zone is ${timezone}; give dates and times in it when you can.`,
    '',
    `QUESTION: ${question}`,
  ];
  if (website) {
    parts.push('', `WEBSITE: ${website.url}${website.title ? ` (${website.title})` : ''}`);
    parts.push(
      'Answer from this website only. Its facts follow. Give each event you name its own link (its link below, or the page it is on).',
    );
    if (website.events.length > 0) {
      const listed = promptEvents(website.events, now);
      parts.push('', `STRUCTURED EVENTS FROM ${website.url}:`, ...listed.map((e, i) => `${eventLines(e, i)}\n`));
      const more = website.events.length - listed.length + (website.unlistedEvents ?? 0) + (website.droppedEvents ?? 0);
      if (more > 0) {
        parts.push(
          `The website has ${more} more structured events than listed here (the list keeps upcoming ones first); say so if the answer may be among them.`,
        );
      }
    } else {
      parts.push('', 'The website carries no structured event data.');
    }
    if (website.text) parts.push('', `WEBSITE TEXT FROM ${website.url}:`, website.text);
    parts.push('', 'END OF WEBSITE FACTS');
  } else {
    parts.push('', 'Search the web for current information and list the matching events.', FEW_SEARCHES);
  }
  return parts.join('\n');
}
