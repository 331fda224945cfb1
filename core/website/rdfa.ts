import type { Document } from 'domhandler';
import { RdfaParser } from 'rdfa-streaming-parser';
import { eventsFromJsonLd, type ReadOptions } from './json-ld';
import { drainQuads, nodesFromQuads, replay, type TagListener } from './rdf-nodes';

/**
 * schema.org and data-vocabulary.org events in RDFa (vocab/prefix/typeof/property/resource, RDFa 1.1 in HTML),
 * read by rdfa-streaming-parser from the page's one parse.
 */
export function eventsFromRdfa(document: Document, options: ReadOptions): void {
  const parser = new RdfaParser({ baseIRI: options.baseUrl, contentType: 'text/html' });
  replay(document, parser as unknown as TagListener);
  eventsFromJsonLd(nodesFromQuads(drainQuads(parser as unknown as { read(): unknown })), options);
}
