import { MicrodataRdfParser } from 'microdata-rdf-streaming-parser';
import { eventsFromJsonLd, type ReadOptions } from './json-ld';
import { microdataFocus } from './microdata-focus';
import { gatherQuads, nodesFromQuads, type Quad, type TagListener } from './rdf-nodes';
import { FocusedFeed } from './tag-feed';

/** microdata-rdf-streaming-parser fed as the page is parsed (see readHtml); its quads once the page has ended. */
export interface MicrodataFeed {
  reader: FocusedFeed;
  /** The page's <base href>, once seen: relative itemids and links resolve against it. */
  setBase(url: string): void;
  quads(): Quad[];
}

export function microdataFeed(pageUrl: string): MicrodataFeed {
  const parser = new MicrodataRdfParser({ baseIRI: pageUrl });
  const quads = gatherQuads(parser);
  return {
    reader: new FocusedFeed(parser as unknown as TagListener, microdataFocus),
    // The parser takes its base only when made, and reads no <base>; the page names it in <head>, before
    // any item but one on <html> itself. Its resolver reads the field at each link (version pinned exactly).
    setBase: (url) => {
      (parser as unknown as { util: { baseIRI: string } }).util.baseIRI = url;
    },
    quads,
  };
}

/**
 * schema.org and data-vocabulary.org events in microdata (itemscope/itemtype/itemprop, itemref, itemid),
 * from the quads microdata-rdf-streaming-parser (W3C Microdata to RDF) made of the page (see microdataFeed).
 */
export function eventsFromMicrodata(quads: Quad[], options: ReadOptions): void {
  eventsFromJsonLd(nodesFromQuads(quads), options);
}
