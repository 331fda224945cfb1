/** The part of an RDF/JS quad the mapping reads (microdata-rdf-streaming-parser and rdfa-streaming-parser emit these). */
export interface Quad {
  subject: { termType: string; value: string };
  predicate: { value: string };
  object: { termType: string; value: string };
}

/** The streaming parsers' SAX-like entry points, fed as the page is parsed instead of a second parse (see FocusedFeed). */
export interface TagListener {
  onTagOpen(name: string, attributes: Record<string, string>): void;
  onText(data: string): void;
  onTagClose(): void;
  onEnd(): void;
}

/**
 * Gathers the quads a streaming parser makes as it makes them. The parsers are Transform streams that hand each
 * quad to their readable side through `push` (the versions are pinned exactly); nothing reads that side while
 * they are fed, so it would only buffer every quad through the stream's machinery until the page ends.
 */
export function gatherQuads(parser: object): () => Quad[] {
  const quads: Quad[] = [];
  (parser as { push(quad: Quad): boolean }).push = (quad) => {
    quads.push(quad);
    return true;
  };
  return () => quads;
}

/**
 * Adds a value under a property the page names. The name is the page's: one that Object.prototype also has
 * (constructor, toString, __proto__) finds a member that is no array, never the node's own list, and
 * `__proto__` is defined as its own property rather than set, which would replace the node's prototype.
 */
function add(node: Record<string, unknown[]>, key: string, value: unknown): void {
  const values = node[key];
  if (Array.isArray(values)) values.push(value);
  else if (key === '__proto__') Object.defineProperty(node, key, { value: [value], enumerable: true, writable: true, configurable: true });
  else node[key] = [value];
}

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SCHEMA = /^https?:\/\/(?:www\.)?schema\.org\//;
// data-vocabulary.org, Google's retired vocabulary: microdata wrote it http://data-vocabulary.org/Event, RDFa
// http://rdf.data-vocabulary.org/#Event. Its Event has schema.org's shape under a few other names.
const DATA_VOCABULARY = /^https?:\/\/(?:rdf\.)?data-vocabulary\.org\/#?/;
const DATA_VOCABULARY_NAMES = new Map([
  ['summary', 'name'],
  ['photo', 'image'],
  ['Address', 'PostalAddress'],
  ['street-address', 'streetAddress'],
  ['locality', 'addressLocality'],
  ['region', 'addressRegion'],
  ['postal-code', 'postalCode'],
  ['country-name', 'addressCountry'],
]);

/** A schema.org or data-vocabulary.org term by its schema.org name; undefined for other vocabularies. */
function schemaName(iri: string): string | undefined {
  if (SCHEMA.test(iri)) return iri.replace(SCHEMA, '');
  if (DATA_VOCABULARY.test(iri)) {
    const name = iri.replace(DATA_VOCABULARY, '');
    return DATA_VOCABULARY_NAMES.get(name) ?? name;
  }
  return undefined;
}

/**
 * Quads as JSON-LD-shaped nodes ({'@id', '@type', name: [...], location: [node]}), in the order their
 * subjects first appear, so the JSON-LD reader maps microdata and RDFa onto facts the same way. Objects that
 * are subjects themselves become the nested node (cycles are the reader's to stop, as in JSON-LD).
 */
export function nodesFromQuads(quads: Quad[]): Record<string, unknown>[] {
  // Blank and named subjects apart, by their value: no key string is made per quad. A page's quads repeat a
  // few predicates and types thousands of times, so each IRI's schema.org name is found once.
  const blank = new Map<string, Record<string, unknown[]>>();
  const named = new Map<string, Record<string, unknown[]>>();
  const subjects: { node: Record<string, unknown[]>; id?: string }[] = [];
  const names = new Map<string, string | undefined>();
  const nameOf = (iri: string) => {
    let name = names.get(iri);
    if (name === undefined && !names.has(iri)) {
      name = schemaName(iri);
      names.set(iri, name);
    }
    return name;
  };
  const nodeOf = (term: Quad['subject']) => {
    const isBlank = term.termType === 'BlankNode';
    const nodes = isBlank ? blank : named;
    let node = nodes.get(term.value);
    if (!node) {
      node = {};
      nodes.set(term.value, node);
      subjects.push(isBlank ? { node } : { node, id: term.value });
    }
    return node;
  };
  // Subjects first, so an object that is also a subject is recognised whatever the quads' order.
  const subjectNodes = quads.map((q) => nodeOf(q.subject));
  for (let i = 0; i < quads.length; i++) {
    const q = quads[i]!;
    const node = subjectNodes[i]!;
    if (q.predicate.value === RDF_TYPE) {
      const type = nameOf(q.object.value);
      if (type) add(node, '@type', type);
      continue;
    }
    const name = nameOf(q.predicate.value);
    if (!name) continue;
    const { termType, value: objectValue } = q.object;
    const value =
      termType === 'Literal'
        ? objectValue
        : ((termType === 'BlankNode' ? blank : named).get(objectValue) ?? (termType === 'NamedNode' ? objectValue : undefined));
    if (value !== undefined) add(node, name, value);
  }
  const out: Record<string, unknown>[] = [];
  for (const { node, id } of subjects) {
    if (id !== undefined) (node as Record<string, unknown>)['@id'] = id;
    if (Object.keys(node).length > 0) out.push(node);
  }
  return out;
}
