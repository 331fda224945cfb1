import type { FeedFocus } from './tag-feed';

/**
 * What microdata-rdf-streaming-parser reads: text only as an itemprop's value (its subtree's text); elements
 * with a microdata attribute or a language, and those with an id (an itemref may name them: the parser starts
 * buffering the subtree of each, and feeds every event to every open buffer). Elements without any of these
 * add nothing, so a subtree without one is not sent (see FocusedFeed). The same triples, for a fraction of the work.
 */
const MICRODATA_ATTRIBUTES = new Set([
  'itemscope',
  'itemprop',
  'itemprop-reverse',
  'itemtype',
  'itemid',
  'itemref',
  'lang',
  'xml:lang',
  'id',
]);

export const microdataFocus: FeedFocus = {
  // An element's own few attributes looked up, rather than each of these looked for on every element.
  actsOn: (_tag, attribs) => {
    for (const name in attribs) if (MICRODATA_ATTRIBUTES.has(name)) return true;
    return false;
  },
  readsText: (attribs) => 'itemprop' in attribs || 'itemprop-reverse' in attribs,
  // The parser gathers text only; an itemref'd element is replayed from its own buffered events, kept whole.
  readsTags: () => false,
  startsItem: (attribs) => 'itemscope' in attribs && !('itemprop' in attribs),
};
