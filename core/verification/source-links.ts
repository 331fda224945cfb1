import type { FoundEvent } from '../contract/event';
import { normalise } from '../events/event-key';
import { safeLink } from '../events/strict-values';
import type { Source } from '../gemini/answer';

/** One address that may carry an event, and whether it is a grounding redirect (Google's hop to the cited page). */
export interface SourceLink {
  url: string;
  grounding: boolean;
}

/**
 * Whether a grounding chunk's link is Google's redirect to the page it cites (`vertexaisearch.cloud.google.com`,
 * and the stand-in's same `/grounding-api-redirect/` path), not the page itself: only such a first hop is fetched
 * without its site's robots.txt, as the redirect is Google's and the page is reached through it.
 */
export function isGroundingRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.hostname === 'vertexaisearch.cloud.google.com' || url.pathname.startsWith('/grounding-api-redirect/');
  } catch {
    return false;
  }
}

const names = (segment: string, title: string) => {
  const t = normalise(title);
  return t.length > 0 && ` ${normalise(segment)} `.includes(` ${t} `);
};

/**
 * Where to look for a model's event, best first: its own link when the model gave one, then the grounding
 * chunks whose supported segments name its title, then the answer's other chunks.
 */
export function sourceLinksOf(event: FoundEvent, sources: Source[]): SourceLink[] {
  const links: SourceLink[] = [];
  const add = (url: string | null, grounding: boolean) => {
    if (url && !links.some((l) => l.url === url)) links.push({ url, grounding });
  };
  add(safeLink(event.url), false);
  for (const s of sources) if (s.segments?.some((segment) => names(segment, event.title))) add(s.uri, isGroundingRedirect(s.uri));
  for (const s of sources) add(s.uri, isGroundingRedirect(s.uri));
  return links;
}

/**
 * The pages one check reads, at most `max`: every event's first link, then every event's second, and so on, so
 * each event gets its best link before any gets a second.
 */
export function pagesToRead(candidates: SourceLink[][], max: number): SourceLink[] {
  const chosen = new Map<string, SourceLink>();
  const longest = Math.max(0, ...candidates.map((c) => c.length));
  for (let rank = 0; rank < longest && chosen.size < max; rank++) {
    for (const links of candidates) {
      const link = links[rank];
      if (link && !chosen.has(link.url) && chosen.size < max) chosen.set(link.url, link);
    }
  }
  return [...chosen.values()];
}
