import { mf2 } from 'microformats-parser';
import { clean, type EventFact, withoutAbsent } from './event-fact';
import type { FactSink } from './fact-sink';
import { addDuration, isoDateTime } from '../time/iso-time';
import { resolveLink } from './links';
import type { PageReader } from './tag-feed';

type MicroformatRoot = ReturnType<typeof mf2>['items'][number];
type MicroformatProperty = MicroformatRoot['properties'][string][number];

export interface MicroformatsOptions {
  baseUrl: string;
  sink: FactSink;
}

/** A node of parse5's default tree, as microformats-parser reads it (and parse5's serialize, for e-* values). */
export interface Parse5Node {
  nodeName: string;
  parentNode: Parse5Node | null;
  tagName?: string;
  namespaceURI?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Parse5Node[];
  value?: string;
  mode?: string;
}

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

// Root class names of an event in microformats2 (h-event) and microformats1 (hCalendar's vevent).
const MF_EVENT = /(?:^|\s)(?:h-event|vevent)(?:\s|$)/;
// A résumé (microformats1 hResume, microformats2 h-resume) and its jobs and schools: hResume marks each as an
// hCalendar vevent with class experience or education, h-resume as a p-experience or p-education h-event.
// They are periods of a career, not events anyone attends.
const MF_RESUME = /(?:^|\s)(?:hresume|h-resume)(?:\s|$)/;
const MF_CAREER = /(?:^|\s)(?:p-)?(?:experience|education)(?:\s|$)/;

/**
 * The outermost h-event / vevent elements of a page, in page order, built as the page is parsed (see
 * readHtml) in the shape of parse5's tree, so microformats-parser reads the page's one parse instead of their
 * markup parsed again. Templates are left out, as the parser would: it drops them itself, leaving a hole its
 * serialiser of e-* values then fails on.
 */
export class MicroformatRoots implements PageReader {
  readonly roots: Parse5Node[] = [];
  /** The innermost open element inside a root; null outside one. */
  private current: Parse5Node | null = null;
  /** Open elements inside a template inside a root. */
  private skipped = 0;
  /** Open elements outside roots, and the depths among them of the résumés still open. */
  private depth = 0;
  private readonly resumes: number[] = [];

  open(name: string, attribs: Record<string, string>): void {
    if (this.current === null) {
      // includes() first: a regex per element with a class is much of the reading's cost on a large page.
      const classes = attribs.class ?? '';
      const event = classes.includes('event') && MF_EVENT.test(classes);
      if (event && !(this.resumes.length > 0 && MF_CAREER.test(classes))) {
        this.current = parse5Element(name, attribs, null);
        this.roots.push(this.current);
        return;
      }
      this.depth++;
      if (classes.includes('resume') && MF_RESUME.test(classes)) this.resumes.push(this.depth);
    } else if (this.skipped > 0 || name === 'template') this.skipped++;
    else this.current = parse5Element(name, attribs, this.current);
  }

  text(data: string): void {
    if (this.current === null || this.skipped > 0) return;
    const children = this.current.childNodes!;
    const last = children[children.length - 1];
    // One text node per run of text, as parse5 makes it (the tokenizer may hand a run over in pieces).
    if (last?.nodeName === '#text') last.value += data;
    else children.push({ nodeName: '#text', value: data, parentNode: this.current });
  }

  close(): void {
    if (this.current === null) {
      if (this.resumes.at(-1) === this.depth) this.resumes.pop();
      this.depth--;
      return;
    }
    if (this.skipped > 0) this.skipped--;
    else this.current = this.current.parentNode;
  }

  end(): void {
    this.current = null;
    this.depth = 0;
    this.resumes.length = 0;
  }
}

/**
 * Events in microformats2 (h-event) and microformats1 hCalendar (vevent, through the parser's backcompat),
 * read by microformats-parser from the roots the page's parse built (see MicroformatRoots).
 */
export function eventsFromMicroformats(roots: Parse5Node[], options: MicroformatsOptions): void {
  // Each root is one event (its nested h-events are sub-events): roots past the bound are counted, not parsed.
  const room = Math.max(options.sink.limit - options.sink.events.length, 0);
  options.sink.dropped += Math.max(roots.length - room, 0);
  if (roots.length === 0 || room === 0) return;
  // The patched parser takes a parse5 document as well as HTML text (docs/decisions/reading-a-website.md), and gathers an element's
  // items and properties without the array spreads that made it quadratic (docs/decisions/reading-a-website.md).
  const stack = itemsOf(roots.slice(0, room), options).reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.type?.includes('h-event')) {
      const fact = toFact(item, options.baseUrl);
      if (fact) options.sink.add(fact);
    }
    for (let j = (item.children?.length ?? 0) - 1; j >= 0; j--) stack.push(item.children![j]!);
  }
}

/**
 * The parser's items of the roots, read together. The parser throws on some values (a link it takes for
 * absolute that is no URL, `http://[`): then each root is read alone, and the ones it throws on are counted as
 * unreadable, so one bad h-event costs only itself.
 */
function itemsOf(roots: Parse5Node[], options: MicroformatsOptions): MicroformatRoot[] {
  const read = (some: Parse5Node[]) => mf2(parse5Document(some) as unknown as string, { baseUrl: options.baseUrl }).items;
  try {
    return read(roots);
  } catch {
    const items: MicroformatRoot[] = [];
    for (const root of roots) {
      try {
        items.push(...read([root]));
      } catch {
        options.sink.unreadable++;
      }
    }
    return items;
  }
}

/** A parse5-shaped document (html, head, body) holding the roots. The parser edits it (links made absolute). */
function parse5Document(roots: Parse5Node[]): Parse5Node {
  const document: Parse5Node = { nodeName: '#document', mode: 'no-quirks', parentNode: null, childNodes: [] };
  const html = parse5Element('html', {}, document);
  parse5Element('head', {}, html);
  const body = parse5Element('body', {}, html);
  for (const root of roots) {
    root.parentNode = body;
    body.childNodes!.push(root);
  }
  return document;
}

function parse5Element(name: string, attribs: Record<string, string>, parent: Parse5Node | null): Parse5Node {
  const attrs: { name: string; value: string }[] = [];
  for (const key in attribs) attrs.push({ name: key, value: attribs[key]! });
  const element = { nodeName: name, tagName: name, namespaceURI: HTML_NAMESPACE, attrs, childNodes: [], parentNode: parent };
  parent?.childNodes?.push(element);
  return element;
}

const isRoot = (v: MicroformatProperty | undefined): v is MicroformatRoot => !!v && typeof v === 'object' && 'properties' in v;

/** A property's text: a string, an e-* property's text value, or an embedded item's name or value. */
function str(v: MicroformatProperty | undefined, max?: number): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return clean(v, max);
  if (isRoot(v)) return str(v.properties.name?.[0], max) ?? (typeof v.value === 'string' ? clean(v.value, max) : undefined);
  return clean(v.value, max);
}

const first = (item: MicroformatRoot, name: string) => item.properties[name]?.[0];

function place(value: MicroformatProperty | undefined): Pick<EventFact, 'place' | 'venue' | 'address' | 'city' | 'region' | 'country'> {
  if (!isRoot(value)) {
    const text = str(value);
    return { place: text, venue: text };
  }
  // An h-card may carry its address inline or in a nested h-adr.
  const adr = isRoot(first(value, 'adr')) ? (first(value, 'adr') as MicroformatRoot) : value;
  const part = (name: string) => str(first(adr, name));
  const parts = ['street-address', 'postal-code', 'locality', 'region', 'country-name'].map(part);
  const address = parts.filter(Boolean).join(', ') || undefined;
  const venue = value.type?.includes('h-adr') ? undefined : str(first(value, 'name'));
  return {
    place: clean([venue, address].filter(Boolean).join(', ')) ?? str(value),
    venue,
    address,
    city: parts[2],
    region: parts[3],
    country: parts[4],
  };
}

function toFact(item: MicroformatRoot, baseUrl: string): EventFact | null {
  const name = str(first(item, 'name'));
  if (!name) return null;
  const start = str(first(item, 'start'));
  const end = str(first(item, 'end'));
  const startAt = isoDateTime(start);
  const endAt = isoDateTime(end) ?? addDuration(startAt, str(first(item, 'duration')));
  const url = str(first(item, 'url'));
  const fact: EventFact = {
    name,
    start: start ?? startAt,
    end: end ?? endAt,
    ...place(first(item, 'location')),
    url: url ? resolveLink(url, baseUrl) : undefined,
    organizer: str(first(item, 'organizer')),
    description: str(first(item, 'summary') ?? first(item, 'description') ?? first(item, 'content'), 240),
    startAt,
    endAt,
    uid: str(first(item, 'uid'), 1000),
  };
  return withoutAbsent(fact);
}
