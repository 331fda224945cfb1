import type { FoundEvent } from '../contract/event';
import type { EventFact } from '../website/event-fact';
import type { WebsiteFacts } from '../website/extract';
import { canonicalUrl } from './canonical-url';
import { normalise, normaliseTitle } from './event-key';

const LINK = /https?:\/\/[^\s<>"'`]+/gi;
// A link at the end of a sentence or in brackets carries the punctuation after it.
const trailing = (url: string) => url.replace(/[).,;:!?\]}]+$/, '');
const linksIn = (text: string | undefined) => (text?.match(LINK) ?? []).map((raw) => canonicalUrl(trailing(raw)));

const linkTexts = (fact: EventFact) => [fact.url, fact.place, fact.offers, fact.organizer, fact.description];

/** The links one event fact carries (its page, place, tickets, organizer, description), canonical. */
export function factLinks(fact: EventFact): (string | null)[] {
  return linkTexts(fact).flatMap(linksIn);
}

/**
 * The usable links many facts carry, each once, in the order factLinks meets them. A page's facts repeat the
 * same texts (one ticket page, one venue): each distinct text is searched and its links parsed once.
 */
export function distinctFactLinks(facts: EventFact[]): string[] {
  const texts = new Set<string>();
  const links = new Set<string>();
  for (const fact of facts) {
    for (const text of linkTexts(fact)) {
      if (text === undefined || texts.has(text)) continue;
      texts.add(text);
      for (const link of linksIn(text)) if (link !== null) links.add(link);
    }
  }
  return [...links];
}

/**
 * Whether an answer from a website names nothing but the website's own structured events, so that the extraction
 * call would only find them again (docs/decisions/gemini-and-cost.md). Concretely: the website's structured data gave at least one
 * event; the answer names at least one of them by title; and every link in the answer is the website's own
 * address or a link its structured events carry (their page, tickets, online venue, organizer), compared
 * canonically. The prompt asks for each event's link, so an event from elsewhere (the page's text, another
 * site) shows up as a link we do not know; an event named with no link at all is what this rule can miss.
 */
export function answerNamesOnlyWebsiteEvents(answer: string, website: WebsiteFacts, exact: FoundEvent[]): boolean {
  if (exact.length === 0) return false;
  const known = new Set<string | null>([...linksIn(website.url), ...website.events.flatMap(factLinks), ...(website.unlistedLinks ?? [])]);
  for (const e of exact) known.add(canonicalUrl(e.url));
  if (!linksIn(answer).every((link) => link !== null && known.has(link))) return false;
  const text = ` ${normalise(answer)} `;
  return exact.some((e) => {
    const title = normaliseTitle(e.title);
    return title.length > 0 && text.includes(` ${title} `);
  });
}
