import type { EventFact } from './event-fact';
import { TEXT_LIMIT, type WebsiteFacts, withSinkCounts } from './extract';
import { FactSink } from './fact-sink';
import type { WebsitePage } from './fetch';
import { readHtml } from './html-document';
import { eventsFromJsonLd, parseJsonLd } from './json-ld';
import { eventsFromMicrodata } from './microdata';
import { eventsFromMicroformats } from './microformats';
import { eventsFromRdfa } from './rdfa';

/**
 * An HTML page's reading in two parts that cost about the same, each its own parse, so two threads can read a
 * large page at once (decision 083): `rdf` feeds the microdata and RDFa parsers and maps their quads; `rest`
 * reads the text, title, links, JSON-LD and microformats. joinPageParts puts them together as extractFacts
 * reads the page in one pass.
 */
export type PagePart = 'rdf' | 'rest';

/** Facts one reader added, in order, and how many more the bound counted and did not keep meanwhile. */
export interface FactRun {
  facts: EventFact[];
  dropped: number;
}

/** What the `rdf` part found: the microdata's facts, then the RDFa's. */
export interface RdfPart {
  part: 'rdf';
  facts: FactRun;
}

/** What the `rest` part found: the page's own fields, the JSON-LD's facts, and the microformats'. */
export interface RestPart {
  part: 'rest';
  title?: string;
  text: string;
  calendarLinks: string[];
  jsonLd: FactRun;
  /** `roots`: the outermost h-event / vevent elements read (see eventsFromMicroformats). */
  microformats: FactRun & { roots: number; unreadable: number };
}

export type PartFacts = RdfPart | RestPart;

/** One part of an HTML page's reading (see PagePart). Synchronous and bounded, as extractFacts is. */
export function readPagePart(page: WebsitePage, part: PagePart): PartFacts {
  if (part === 'rdf') {
    // The text is the other part's: none is gathered here.
    const html = readHtml(page.body, page.url, 0, { microdata: true, rdfa: true, microformats: false });
    const sink = new FactSink();
    const options = { baseUrl: html.baseUrl, sink };
    eventsFromMicrodata(html.microdata, options);
    eventsFromRdfa(html.rdfa, options);
    return { part, facts: { facts: sink.events, dropped: sink.dropped } };
  }
  const html = readHtml(page.body, page.url, TEXT_LIMIT, { microdata: false, rdfa: false, microformats: true });
  const sink = new FactSink();
  const options = { baseUrl: html.baseUrl, sink };
  eventsFromJsonLd(
    html.jsonLd.map(parseJsonLd).filter((v) => v !== undefined),
    options,
  );
  const jsonLd = { facts: sink.events.slice(), dropped: sink.dropped };
  eventsFromMicroformats(html, options);
  return {
    part,
    title: html.title,
    text: html.text,
    calendarLinks: html.calendarLinks,
    jsonLd,
    microformats: {
      facts: sink.events.slice(jsonLd.facts.length),
      dropped: sink.dropped - jsonLd.dropped,
      roots: html.microformatRoots.length,
      unreadable: sink.unreadable,
    },
  };
}

/**
 * The page's facts from its two parts, exactly as extractFacts reads the page in one pass: each format's facts
 * in the same order (JSON-LD, microdata, RDFa, microformats) into one bound, each counted where the bound
 * counts it. Undefined when the bound would have left some microformat roots unread (a page of thousands of
 * events): which ones depends on the other formats' count, so such a page is read in one pass instead.
 */
export function joinPageParts(url: string, rdf: RdfPart, rest: RestPart): WebsiteFacts | undefined {
  const sink = new FactSink();
  // A part's own bound kept a prefix of its facts: added again here, the joined bound keeps the same prefix.
  const add = (run: FactRun) => {
    for (const fact of run.facts) sink.add(fact);
    sink.dropped += run.dropped;
  };
  add(rest.jsonLd);
  add(rdf.facts);
  const room = Math.max(sink.limit - sink.events.length, 0);
  if (rest.microformats.roots > room) return undefined;
  add(rest.microformats);
  sink.unreadable += rest.microformats.unreadable;
  const out = withSinkCounts({ url, title: rest.title, events: sink.events, text: rest.text }, sink);
  if (rest.calendarLinks.length > 0) out.calendarLinks = rest.calendarLinks;
  return out;
}
