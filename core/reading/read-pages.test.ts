import { describe, expect, it } from 'vitest';
import type { FoundEvent } from '../contract/event';
import { answerNamesOnlyWebsiteEvents } from '../events/answer-coverage';
import { buildPrompt, PROMPT_EVENT_LIMIT } from '../search/prompt';
import type { EventFact } from '../website/event-fact';
import { listedForTheMainThread, type StepResult } from './read-pages';

const now = Date.parse('2026-05-14T12:00:00Z');
const context = { searcherTimezone: 'UTC', now };

/** A page's facts: `count` talks a day apart from 2026-05-01, each with its own page and ticket links. */
function facts(count: number): EventFact[] {
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(Date.UTC(2026, 4, 1 + i)).toISOString().slice(0, 10);
    return {
      name: `Talk ${i}`,
      startAt: `${day}T19:00`,
      start: `${day} 19:00`,
      url: `https://talks.example/${i}`,
      offers: `https://tickets.example/${i}`,
    };
  });
}

const step = (events: EventFact[]): StepResult => ({
  facts: { url: 'https://talks.example/', title: 'Talks', events, text: 'All our talks', droppedEvents: 3 },
  follow: [],
  events: [],
  leftOut: [],
});

describe('listedForTheMainThread', () => {
  it('keeps only the facts the prompt lists, and the prompt reads exactly as from all of them', () => {
    const all = step(facts(PROMPT_EVENT_LIMIT + 70));
    const sent = listedForTheMainThread(all, context);
    expect(sent.facts.events).toHaveLength(PROMPT_EVENT_LIMIT);
    expect(sent.facts.unlistedEvents).toBe(70);
    const prompt = (website: StepResult['facts']) => buildPrompt({ question: 'talks', timezone: 'UTC', now: new Date(now), website });
    expect(prompt(sent.facts)).toBe(prompt(all.facts));
    expect(prompt(sent.facts)).toContain('The website has 73 more structured events than listed here');
  });

  it('keeps the links of the facts held back: an answer linking one still names only the website’s events', () => {
    const all = step(facts(PROMPT_EVENT_LIMIT + 70));
    const sent = listedForTheMainThread(all, context);
    const listed = new Set(sent.facts.events.map((f) => f.name));
    const held = all.facts.events.find((f) => !listed.has(f.name))!;
    const exact = [{ title: held.name, url: held.url } as FoundEvent];
    const answer = `${held.name}: tickets at ${held.offers}`;
    expect(answerNamesOnlyWebsiteEvents(answer, all.facts, exact)).toBe(true);
    expect(answerNamesOnlyWebsiteEvents(answer, sent.facts, exact)).toBe(true);
    expect(answerNamesOnlyWebsiteEvents(`${held.name}: https://elsewhere.example/x`, sent.facts, exact)).toBe(false);
  });

  it('sends a reading the prompt lists whole, and one with calendars still to follow, unchanged', () => {
    const few = step(facts(PROMPT_EVENT_LIMIT));
    expect(listedForTheMainThread(few, context)).toBe(few);
    const following = { ...step(facts(PROMPT_EVENT_LIMIT + 70)), follow: ['https://talks.example/all.ics'] };
    expect(listedForTheMainThread(following, context)).toBe(following);
  });
});
