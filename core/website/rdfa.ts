import { RdfaParser } from 'rdfa-streaming-parser';
import type { HtmlPage } from './html-document';
import { eventsFromJsonLd, type ReadOptions } from './json-ld';
import { rdfaFocus } from './rdfa-focus';
import { drainQuads, nodesFromQuads, replay, type TagListener } from './rdf-nodes';

/**
 * schema.org and data-vocabulary.org events in RDFa (vocab/prefix/typeof/property/resource, RDFa 1.1 in HTML),
 * read by rdfa-streaming-parser from the page's one parse: only the subtrees the page's walk found holding
 * an element it acts on (see rdfaFocus).
 */
export function eventsFromRdfa(page: HtmlPage, options: ReadOptions): void {
  const parser = new RdfaParser({ baseIRI: options.baseUrl, contentType: 'text/html' });
  const listener = parser as unknown as TagListener;
  // The parser edits the attributes it is given (drops a non-CURIE rel/rev beside property, adds xmlns to an
  // XML literal's tags): it gets a copy, so the page's tree stays as parsed for the readers after it.
  const copying: TagListener = {
    onTagOpen: (name, attributes) => listener.onTagOpen(name, { ...attributes }),
    onText: (data) => listener.onText(data),
    onTagClose: () => listener.onTagClose(),
    onEnd: () => listener.onEnd(),
  };
  replay(page.document, copying, rdfaFocus, page.focusElements.rdfa);
  eventsFromJsonLd(nodesFromQuads(drainQuads(parser as unknown as { read(): unknown })), options);
}
