import type { Document, Element } from 'domhandler';
import { RdfaParser } from 'rdfa-streaming-parser';
import { eventsFromJsonLd, type ReadOptions } from './json-ld';
import { drainQuads, nodesFromQuads, replay, type TagListener } from './rdf-nodes';

/**
 * schema.org and data-vocabulary.org events in RDFa (vocab/prefix/typeof/property/resource, RDFa 1.1 in HTML),
 * read by rdfa-streaming-parser from the page's one parse.
 */
export function eventsFromRdfa(document: Document, options: ReadOptions): void {
  const parser = new RdfaParser({ baseIRI: options.baseUrl, contentType: 'text/html' });
  replay(document, parser as unknown as TagListener, readsText);
  eventsFromJsonLd(nodesFromQuads(drainQuads(parser as unknown as { read(): unknown })), options);
}

/**
 * The parser reads text only as the value of an element with `property` (its whole subtree's text) or as part
 * of an rdfa:Pattern it copies elsewhere; any other text it still gathers into every ancestor, each close
 * copying the parent's list (Array#concat), quadratic in a page's size (4 s for a 2 MB page). So it is sent
 * only the text under those elements, which gives the same triples.
 */
const readsText = (element: Element) => 'property' in element.attribs || (element.attribs.typeof?.includes('Pattern') ?? false);
