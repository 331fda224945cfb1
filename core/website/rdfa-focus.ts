import type { Element } from 'domhandler';
import type { ReplayFocus } from './rdf-nodes';

/**
 * What rdfa-streaming-parser reads. Text: only as the value of an element with `property` (its whole
 * subtree's text) or inside an rdfa:Pattern it copies elsewhere; any other text it still gathers into every
 * ancestor, each close copying the parent's list (Array#concat), quadratic in a page's size (4 s for a 2 MB
 * page). Elements: those with an RDFa attribute (and the HTML ones it reads: base, time, head and body);
 * an element without one passes its context on unchanged and adds no triple, so a subtree without one is
 * not replayed, and inside a property's value is sent as its text alone (its tags would only be copied into
 * the value's list, each close copying it again: quadratic in the size of a property's content). The same
 * triples, for a fraction of the work.
 */
const RDFA_ATTRIBUTES = new Set([
  'about',
  'content',
  'datatype',
  'datetime',
  'href',
  'inlist',
  'lang',
  'prefix',
  'property',
  'rel',
  'resource',
  'rev',
  'role',
  'src',
  'typeof',
  'vocab',
  'xml:base',
  'xml:lang',
]);
const RDFA_ELEMENTS = new Set(['html', 'head', 'body', 'base', 'time']);
const isPattern = (element: Element) => element.attribs.typeof?.includes('Pattern') ?? false;

export const rdfaFocus: ReplayFocus = {
  readsText: (element) => 'property' in element.attribs || isPattern(element),
  // A datatype may make the value an XML literal (its tags kept); a pattern is copied tag by tag.
  readsTags: (element) => 'datatype' in element.attribs || isPattern(element),
  readsElement: (element) => {
    if (RDFA_ELEMENTS.has(element.name)) return true;
    for (const name in element.attribs) if (RDFA_ATTRIBUTES.has(name) || name.startsWith('xmlns')) return true;
    return false;
  },
};
