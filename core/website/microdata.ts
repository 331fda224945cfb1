import { MicrodataRdfParser } from 'microdata-rdf-streaming-parser';
import type { HtmlPage } from './html-document';
import { eventsFromJsonLd, type ReadOptions } from './json-ld';
import { microdataFocus } from './microdata-focus';
import { drainQuads, nodesFromQuads, replay, type TagListener } from './rdf-nodes';

/**
 * schema.org and data-vocabulary.org events in microdata (itemscope/itemtype/itemprop, itemref, itemid),
 * read by microdata-rdf-streaming-parser (W3C Microdata to RDF) from the page's one parse: only the subtrees
 * the page's walk found holding an element it acts on (see microdataFocus).
 */
export function eventsFromMicrodata(page: HtmlPage, options: ReadOptions): void {
  const parser = new MicrodataRdfParser({ baseIRI: options.baseUrl });
  replay(page.document, parser as unknown as TagListener, microdataFocus, page.focusElements.microdata);
  eventsFromJsonLd(nodesFromQuads(drainQuads(parser as unknown as { read(): unknown })), options);
}
