import type { Document } from 'domhandler';
import { MicrodataRdfParser } from 'microdata-rdf-streaming-parser';
import { eventsFromJsonLd, type ReadOptions } from './json-ld';
import { drainQuads, nodesFromQuads, type ReplayFocus, replay, type TagListener } from './rdf-nodes';

/**
 * schema.org and data-vocabulary.org events in microdata (itemscope/itemtype/itemprop, itemref, itemid),
 * read by microdata-rdf-streaming-parser (W3C Microdata to RDF) from the page's one parse.
 */
export function eventsFromMicrodata(document: Document, options: ReadOptions): void {
  const parser = new MicrodataRdfParser({ baseIRI: options.baseUrl });
  replay(document, parser as unknown as TagListener, focus);
  eventsFromJsonLd(nodesFromQuads(drainQuads(parser as unknown as { read(): unknown })), options);
}

/**
 * What microdata-rdf-streaming-parser reads: text only as an itemprop's value (its subtree's text); elements
 * with a microdata attribute or a language, and those with an id (an itemref may name them: the parser starts
 * buffering the subtree of each, and feeds every event to every open buffer). Elements without any of these
 * add nothing, so a subtree without one is not replayed. The same triples, for a fraction of the work.
 */
const MICRODATA_ATTRIBUTES = ['itemscope', 'itemprop', 'itemprop-reverse', 'itemtype', 'itemid', 'itemref', 'lang', 'xml:lang', 'id'];
const focus: ReplayFocus = {
  readsText: (element) => 'itemprop' in element.attribs || 'itemprop-reverse' in element.attribs,
  // The parser gathers text only; an itemref'd element is replayed from its own buffered events, kept whole.
  readsTags: () => false,
  readsElement: (element) => {
    for (const name of MICRODATA_ATTRIBUTES) if (name in element.attribs) return true;
    return false;
  },
};
