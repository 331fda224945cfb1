import type { FoundEvent } from '../contract/event';
import { canonicalUrl } from './canonical-url';
import { normalise, normaliseTitle } from './event-key';

const LINK = /https?:\/\/[^\s<>"'`]+/gi;
// A link at the end of a sentence or in brackets carries the punctuation after it.
const trailing = (url: string) => url.replace(/[).,;:!?\]}]+$/, '');

/**
 * Whether an answer from a website names nothing but the website's own structured events, so that the extraction
 * call would only find them again (decision 042). Concretely: the website gave at least one event; the answer
 * names at least one of them by title; and every link in the answer is one of their links or the website's own
 * address (compared canonically). The prompt asks for each event's link, so an event from elsewhere (the page's
 * text, another site) shows up as a link we do not know; an event named with no link at all and no structured
 * twin is what this rule can miss.
 */
export function answerNamesOnlyWebsiteEvents(answer: string, events: FoundEvent[], websiteUrl: string): boolean {
  if (events.length === 0) return false;
  const known = new Set<string>();
  for (const url of [websiteUrl, ...events.map((e) => e.url)]) {
    const c = canonicalUrl(url);
    if (c) known.add(c);
  }
  for (const raw of answer.match(LINK) ?? []) {
    const c = canonicalUrl(trailing(raw));
    if (!c || !known.has(c)) return false;
  }
  const text = ` ${normalise(answer)} `;
  return events.some((e) => {
    const title = normaliseTitle(e.title);
    return title.length > 0 && text.includes(` ${title} `);
  });
}
