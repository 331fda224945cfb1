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
