import type { FeedFocus } from './tag-feed';

/**
 * What rdfa-streaming-parser reads. Text: only as the value of an element with `property` (its whole
 * subtree's text) or inside an rdfa:Pattern it copies elsewhere; any other text it still gathers into every
 * ancestor (each close appends the child's list to the parent's: patched from a copy, which was quadratic,
 * docs/decisions/reading-a-website.md). Elements: those with an attribute that makes or shapes a triple (and the HTML ones it reads:
 * base, time, head and body); an element without one passes its context on unchanged and adds no triple, so a
 * subtree without one is not sent, and inside a property's value is sent as its text alone (its tags would
 * only be added to the value's list). Each element costs the parser a context of its own, so the same triples
 * come for a fraction of the work (see FocusedFeed).
 */
const RDFA_ATTRIBUTES = new Set(['about', 'prefix', 'property', 'rel', 'resource', 'rev', 'role', 'typeof', 'vocab', 'xml:base']);
/**
 * Attributes that only shape what a triple-making element says (its object, value, language, datatype) or,
 * for href and src, set the subject of their own subtree. Alone, outside a rel/rev, they make no triple: an
 * element that holds no more than these is sent only as the ancestor of one that does, or under a rel or
 * rev whose triples it may complete (RDFa 1.1, processing steps 5 and 11: "hanging" rels). Every link and
 * image of a page carries one, so this keeps the parser to the page's RDFa.
 */
const RDFA_CONTEXT_ATTRIBUTES = new Set(['content', 'datatype', 'datetime', 'href', 'inlist', 'lang', 'src', 'xml:lang']);
const RDFA_ELEMENTS = new Set(['html', 'head', 'body', 'base', 'time']);
const isPattern = (attribs: Record<string, string>) => attribs.typeof?.includes('Pattern') ?? false;

/**
 * Whether the parser acts on an element, given whether one of its ancestors has rel or rev (see
 * RDFA_CONTEXT_ATTRIBUTES).
 */
export function rdfaActsOn(tag: string, attribs: Record<string, string>, underRelation: boolean): boolean {
  if (RDFA_ELEMENTS.has(tag)) return true;
  for (const name in attribs) {
    if (RDFA_ATTRIBUTES.has(name) || name.startsWith('xmlns')) return true;
    if (underRelation && RDFA_CONTEXT_ATTRIBUTES.has(name)) return true;
  }
  return false;
}

export const rdfaFocus: FeedFocus = {
  actsOn: rdfaActsOn,
  readsText: (attribs) => 'property' in attribs || isPattern(attribs),
  // A datatype may make the value an XML literal (its tags kept); a pattern is copied tag by tag.
  readsTags: (attribs) => 'datatype' in attribs || isPattern(attribs),
  // A typed node that is no property's value and no relation's object.
  startsItem: (attribs, underRelation) => 'typeof' in attribs && !('property' in attribs) && !underRelation,
};
