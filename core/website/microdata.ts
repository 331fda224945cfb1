import type { Document } from 'domhandler';
import { MicrodataRdfParser } from 'microdata-rdf-streaming-parser';
import { eventsFromJsonLd, type ReadOptions } from './json-ld';
import { drainQuads, nodesFromQuads, replay, type TagListener } from './rdf-nodes';

/**
 * schema.org and data-vocabulary.org events in microdata (itemscope/itemtype/itemprop, itemref, itemid),
 * read by microdata-rdf-streaming-parser (W3C Microdata to RDF) from the page's one parse.
 */
export function eventsFromMicrodata(document: Document, options: ReadOptions): void {
  const parser = new MicrodataRdfParser({ baseIRI: options.baseUrl });
  replay(document, parser as unknown as TagListener);
  eventsFromJsonLd(nodesFromQuads(drainQuads(parser as unknown as { read(): unknown })), options);
}
