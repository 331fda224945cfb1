import { type ChildNode, type Document, type Element, isTag, isText, type ParentNode } from 'domhandler';

/** The part of an RDF/JS quad the mapping reads (microdata-rdf-streaming-parser and rdfa-streaming-parser emit these). */
export interface Quad {
  subject: { termType: string; value: string };
  predicate: { value: string };
  object: { termType: string; value: string };
}

/** The streaming parsers' SAX-like entry points, fed from the already parsed tree instead of a second parse. */
export interface TagListener {
  onTagOpen(name: string, attributes: Record<string, string>): void;
  onText(data: string): void;
  onTagClose(): void;
  onEnd(): void;
}

/** What a parser reads of a page, so the rest need not be replayed to it (see rdfaFocus, microdataFocus). */
export interface ReplayFocus {
  /** Elements whose text the parser reads (with their whole subtree). */
  readsText(element: Element): boolean;
  /** Elements whose subtree's tags the parser reads too, inside a text-read element (an XML literal). */
  readsTags(element: Element): boolean;
}

/**
 * Replays the parsed page as the tag events htmlparser2 would send, without recursion (nesting is the page's),
 * but only what the parser reads. `kept` holds the elements the parser acts on and their ancestors (marked by
 * the page's one walk, readHtml); a subtree without one adds no triple. Outside a text-read element only kept
 * elements are opened; inside one, a subtree without a kept element is sent as its text alone, unless its tags
 * are read too.
 */
export function replay(document: Document, listener: TagListener, focus: ReplayFocus, kept: ReadonlySet<Element>): void {
  if (kept.size === 0) {
    listener.onEnd();
    return;
  }
  // Elements, text nodes, and closes: a number whose bit 1 says the element's text was read, bit 2 its tags.
  const stack: (ChildNode | number)[] = [];
  // How many open elements read text, and their tags.
  let textOpen = 0;
  let tagsOpen = 0;
  pushChildren(stack, document, kept, false);
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'number') {
      if (item & 1) textOpen--;
      if (item & 2) tagsOpen--;
      listener.onTagClose();
      continue;
    }
    if (isText(item)) {
      if (textOpen > 0) listener.onText(item.data);
      continue;
    }
    if (!isTag(item)) continue;
    if (!kept.has(item)) {
      if (textOpen === 0) continue;
      if (tagsOpen === 0) {
        const text = textIn(item);
        if (text) listener.onText(text);
        continue;
      }
    }
    listener.onTagOpen(item.name, item.attribs);
    const close = (focus.readsText(item) ? 1 : 0) | (focus.readsTags(item) ? 2 : 0);
    if (close & 1) textOpen++;
    if (close & 2) tagsOpen++;
    stack.push(close);
    pushChildren(stack, item, kept, textOpen > 0);
  }
  listener.onEnd();
}

/** Children to replay, last first: all inside a text-read element, else only the kept elements. */
function pushChildren(stack: (ChildNode | number)[], parent: ParentNode, kept: ReadonlySet<Element>, all: boolean): void {
  const children = parent.children;
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i]!;
    if (all || kept.has(child as Element)) stack.push(child);
  }
}

/** The text of an element's subtree, in document order (as the parser would gather it from each text node). */
function textIn(element: Element): string {
  let text = '';
  const stack: ChildNode[] = [element];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) text += node.data;
    else if (isTag(node)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return text;
}

/** Adds an element the parser acts on, and its ancestors, to `kept`: each ancestor once (see replay). */
export function keepWithAncestors(element: Element, kept: Set<Element>): void {
  // An ancestor already kept has had all its own ancestors kept too.
  for (let e: ParentNode | null = element; e && isTag(e) && !kept.has(e); e = e.parent) kept.add(e);
}

/**
 * Drains the quads a parser pushed into its readable side. The parsers are Transform streams; nothing reads them
 * while they are fed, so every quad is still buffered, and read() hands them back synchronously.
 */
export function drainQuads(stream: { read(): unknown }): Quad[] {
  const quads: Quad[] = [];
  for (let q = stream.read(); q !== null; q = stream.read()) quads.push(q as Quad);
  return quads;
}

function add(node: Record<string, unknown[]>, key: string, value: unknown): void {
  const values = node[key];
  if (values) values.push(value);
  else node[key] = [value];
}

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SCHEMA = /^https?:\/\/(?:www\.)?schema\.org\//;
// data-vocabulary.org, Google's retired vocabulary: microdata wrote it http://data-vocabulary.org/Event, RDFa
// http://rdf.data-vocabulary.org/#Event. Its Event has schema.org's shape under a few other names.
const DATA_VOCABULARY = /^https?:\/\/(?:rdf\.)?data-vocabulary\.org\/#?/;
const DATA_VOCABULARY_NAMES: Record<string, string> = {
  summary: 'name',
  photo: 'image',
  Address: 'PostalAddress',
  'street-address': 'streetAddress',
  locality: 'addressLocality',
  region: 'addressRegion',
  'postal-code': 'postalCode',
  'country-name': 'addressCountry',
};

/** A schema.org or data-vocabulary.org term by its schema.org name; undefined for other vocabularies. */
function schemaName(iri: string): string | undefined {
  if (SCHEMA.test(iri)) return iri.replace(SCHEMA, '');
  if (DATA_VOCABULARY.test(iri)) {
    const name = iri.replace(DATA_VOCABULARY, '');
    return DATA_VOCABULARY_NAMES[name] ?? name;
  }
  return undefined;
}

/**
 * Quads as JSON-LD-shaped nodes ({'@id', '@type', name: [...], location: [node]}), in the order their
 * subjects first appear, so the JSON-LD reader maps microdata and RDFa onto facts the same way. Objects that
 * are subjects themselves become the nested node (cycles are the reader's to stop, as in JSON-LD).
 */
export function nodesFromQuads(quads: Quad[]): Record<string, unknown>[] {
  const nodes = new Map<string, Record<string, unknown[]>>();
  const nodeOf = (key: string) => {
    let node = nodes.get(key);
    if (!node) {
      node = {};
      nodes.set(key, node);
    }
    return node;
  };
  const keyOf = (term: { termType: string; value: string }) => `${term.termType === 'BlankNode' ? '_' : 'n'}:${term.value}`;
  // Subjects first, so an object that is also a subject is recognised whatever the quads' order.
  for (const q of quads) nodeOf(keyOf(q.subject));
  for (const q of quads) {
    const node = nodeOf(keyOf(q.subject));
    if (q.predicate.value === RDF_TYPE) {
      const type = schemaName(q.object.value);
      if (type) add(node, '@type', type);
      continue;
    }
    const name = schemaName(q.predicate.value);
    if (!name) continue;
    const objectKey = keyOf(q.object);
    const value =
      q.object.termType === 'Literal'
        ? q.object.value
        : (nodes.get(objectKey) ?? (q.object.termType === 'NamedNode' ? q.object.value : undefined));
    if (value !== undefined) add(node, name, value);
  }
  const out: Record<string, unknown>[] = [];
  for (const [key, node] of nodes) {
    if (key.startsWith('n:')) (node as Record<string, unknown>)['@id'] = key.slice(2);
    if (Object.keys(node).length > 0) out.push(node);
  }
  return out;
}
