import type { Element } from 'domhandler';
import type { ReplayFocus } from './rdf-nodes';

/**
 * What microdata-rdf-streaming-parser reads: text only as an itemprop's value (its subtree's text); elements
 * with a microdata attribute or a language, and those with an id (an itemref may name them: the parser starts
 * buffering the subtree of each, and feeds every event to every open buffer). Elements without any of these
 * add nothing, so a subtree without one is not replayed. The same triples, for a fraction of the work.
 */
const MICRODATA_ATTRIBUTES = ['itemscope', 'itemprop', 'itemprop-reverse', 'itemtype', 'itemid', 'itemref', 'lang', 'xml:lang', 'id'];

export const microdataFocus: ReplayFocus = {
  readsText: (element) => 'itemprop' in element.attribs || 'itemprop-reverse' in element.attribs,
  // The parser gathers text only; an itemref'd element is replayed from its own buffered events, kept whole.
  readsTags: () => false,
};

/** Whether the parser acts on an element; the page's one walk marks these and their ancestors for replay. */
export function microdataActsOn(element: Element): boolean {
  for (const name of MICRODATA_ATTRIBUTES) if (name in element.attribs) return true;
  return false;
}
