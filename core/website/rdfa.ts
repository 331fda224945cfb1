import { RdfaParser } from 'rdfa-streaming-parser';
import { eventsFromJsonLd, type ReadOptions } from './json-ld';
import { rdfaFocus } from './rdfa-focus';
import { gatherQuads, nodesFromQuads, type Quad, type TagListener } from './rdf-nodes';
import { FocusedFeed } from './tag-feed';

/** rdfa-streaming-parser fed as the page is parsed (see readHtml); its quads once the page has ended. */
export interface RdfaFeed {
  reader: FocusedFeed;
  quads(): Quad[];
}

export function rdfaFeed(pageUrl: string): RdfaFeed {
  // The parser reads <base> itself (rdfaFocus sends it).
  const parser = new RdfaParser({ baseIRI: pageUrl, contentType: 'text/html' });
  const listener = parser as unknown as TagListener;
  const quads = gatherQuads(parser);
  // The parser edits the attributes it is given (drops a non-CURIE rel/rev beside property, adds xmlns to an
  // XML literal's tags): it gets a copy, so the other readers see the attributes as parsed.
  const copying: TagListener = {
    onTagOpen: (name, attributes) => listener.onTagOpen(name, { ...attributes }),
    onText: (data) => listener.onText(data),
    onTagClose: () => listener.onTagClose(),
    onEnd: () => listener.onEnd(),
  };
  return { reader: new FocusedFeed(copying, rdfaFocus), quads };
}

/**
 * schema.org and data-vocabulary.org events in RDFa (vocab/prefix/typeof/property/resource, RDFa 1.1 in HTML),
 * from the quads rdfa-streaming-parser made of the page (see rdfaFeed).
 */
export function eventsFromRdfa(quads: Quad[], options: ReadOptions): void {
  eventsFromJsonLd(nodesFromQuads(quads), options);
}
