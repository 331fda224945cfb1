import { mf2 } from 'microformats-parser';
import { clean, type EventFact, withoutAbsent } from './event-fact';
import type { FactSink } from './fact-sink';
import { addDuration, isoDateTime } from '../time/iso-time';
import type { HtmlPage } from './html-document';
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

// What an open element was to MicroformatRoots, undone at its close.
const OUTSIDE = 0;
const RESUME = 1;
const ROOT = 2;
const BUILT = 3;
const SKIPPED = 4;
const REFERENCED = 5;

/**
 * The outermost h-event / vevent elements of a page, in page order, built as the page is parsed (see
 * readHtml) in the shape of parse5's tree, so microformats-parser reads the page's one parse instead of their
 * markup parsed again. Templates are left out, as the parser would: it drops them itself, leaving a hole its
 * serialiser of e-* values then fails on. The elements outside them that an `itemref` names (`ids`: hCalendar
 * properties kept elsewhere on the page) are built too, so the parser finds them as it would in the whole page.
 */
export class MicroformatRoots implements PageReader {
  readonly roots: Parse5Node[] = [];
  /** The roots hidden from the page's readers (see hiddenFromReaders). */
  readonly hidden = new Set<Parse5Node>();
  /** Elements outside the roots that an itemref names, each with its subtree (its own roots left out). */
  readonly referenced: Parse5Node[] = [];
  /** The innermost open element being built (in a root or a referenced element); null outside them. */
  private current: Parse5Node | null = null;
  private inRoot = false;
  /** Open elements inside a template inside a built element. */
  private skipped = 0;
  /** Résumés open outside roots. */
  private resumes = 0;
  /** Per open element, what it was (OUTSIDE, RESUME, ROOT, BUILT, SKIPPED, REFERENCED). */
  private readonly kinds: number[] = [];
  private readonly taken = new Set<string>();

  constructor(private readonly ids?: ReadonlySet<string>) {}

  open(name: string, attribs: Record<string, string>, _underRelation: boolean, hidden: boolean): void {
    if (this.skipped > 0 || (this.current !== null && name === 'template')) {
      this.skipped++;
      this.kinds.push(SKIPPED);
      return;
    }
    if (this.inRoot) {
      this.current = parse5Element(name, attribs, this.current);
      this.kinds.push(BUILT);
      return;
    }
    // includes() first: a regex per element with a class is much of the reading's cost on a large page.
    const classes = attribs.class ?? '';
    const event = classes.includes('event') && MF_EVENT.test(classes);
    if (event && !(this.resumes > 0 && MF_CAREER.test(classes))) {
      const root = parse5Element(name, attribs, null);
      // Not a child of the referenced element it may sit in, but back to it at its close.
      root.parentNode = this.current;
      this.roots.push(root);
      if (hidden) this.hidden.add(root);
      this.current = root;
      this.inRoot = true;
      this.kinds.push(ROOT);
      return;
    }
    if (this.current !== null) {
      // Inside a referenced element, whose own itemrefs are not followed: a loop of them would never end.
      const { itemref: _, ...own } = attribs;
      this.current = parse5Element(name, own, this.current);
      this.kinds.push(BUILT);
      return;
    }
    const id = attribs.id;
    if (id !== undefined && this.ids?.has(id) && !this.taken.has(id)) {
      this.taken.add(id);
      const { itemref: _, ...own } = attribs;
      this.current = parse5Element(name, own, null);
      this.referenced.push(this.current);
      this.kinds.push(REFERENCED);
      return;
    }
    if (classes.includes('resume') && MF_RESUME.test(classes)) {
      this.resumes++;
      this.kinds.push(RESUME);
    } else this.kinds.push(OUTSIDE);
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
    switch (this.kinds.pop()) {
      case SKIPPED:
        this.skipped--;
        return;
      case RESUME:
        this.resumes--;
        return;
      case ROOT:
        this.inRoot = false;
        this.current = this.current!.parentNode;
        return;
      case BUILT:
      case REFERENCED:
        this.current = this.current!.parentNode;
        return;
    }
  }

  end(): void {
    this.current = null;
    this.inRoot = false;
    this.skipped = 0;
    this.resumes = 0;
    this.kinds.length = 0;
  }
}

/** What eventsFromMicroformats reads of a page (see HtmlPage). */
export type MicroformatsOfPage = Pick<HtmlPage, 'microformatRoots' | 'hiddenMicroformatRoots' | 'itemrefTargets' | 'shownText'>;

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Events in microformats2 (h-event) and microformats1 hCalendar (vevent, through the parser's backcompat),
 * read by microformats-parser from the roots the page's parse built (see MicroformatRoots). An event hidden from
 * the page's readers (a `display: none` h-event) is kept only when the page's visible text names it: markup
 * nobody sees does not say an event happens ("CANCELLED. There are no events." beside a hidden h-event).
 */
export function eventsFromMicroformats(page: MicroformatsOfPage, options: MicroformatsOptions): void {
  const { microformatRoots: roots, hiddenMicroformatRoots: hidden, itemrefTargets: referenced } = page;
  // Each root is one event (its nested h-events are sub-events): roots past the bound are counted, not parsed.
  const room = Math.max(options.sink.limit - options.sink.events.length, 0);
  options.sink.dropped += Math.max(roots.length - room, 0);
  if (roots.length === 0 || room === 0) return;
  const kept = roots.slice(0, room);
  let shown: string | undefined;
  const showsName = (name: string) => {
    shown ??= fold(page.shownText);
    const folded = fold(name);
    return folded.length >= 3 && shown.includes(folded);
  };
  // The patched parser takes a parse5 document as well as HTML text (docs/decisions/reading-a-website.md), and
  // gathers an element's items and properties without the array spreads that made it quadratic (the same record).
  const stack = itemsOf(kept, referenced, options)
    .map(({ item, root }) => ({ item, hidden: hidden.has(root) }))
    .reverse();
  while (stack.length > 0) {
    const { item, hidden: unseen } = stack.pop()!;
    if (item.type?.includes('h-event')) {
      const fact = toFact(item, options.baseUrl);
      if (fact && (!unseen || showsName(fact.name))) options.sink.add(fact);
    }
    for (let j = (item.children?.length ?? 0) - 1; j >= 0; j--) stack.push({ item: item.children![j]!, hidden: unseen });
  }
}

/**
 * The parser's item of each root, read together. The parser throws on some values (a link it takes for
 * absolute that is no URL, `http://[`): then each root is read alone, and the ones it throws on are counted as
 * unreadable, so one bad h-event costs only itself. Each root is one item, in order; the referenced elements,
 * placed after them, may make items of their own (an h-card), which are no root's and left out.
 */
function itemsOf(
  roots: Parse5Node[],
  referenced: Parse5Node[],
  options: MicroformatsOptions,
): { item: MicroformatRoot; root: Parse5Node }[] {
  const read = (some: Parse5Node[]) => mf2(parse5Document(some, referenced) as unknown as string, { baseUrl: options.baseUrl }).items;
  try {
    const items = read(roots);
    return roots.map((root, i) => ({ item: items[i]!, root }));
  } catch {
    const items: { item: MicroformatRoot; root: Parse5Node }[] = [];
    for (const root of roots) {
      try {
        const item = read([root])[0];
        if (item) items.push({ item, root });
      } catch {
        options.sink.unreadable++;
      }
    }
    return items;
  }
}

/** A parse5-shaped document (html, head, body) holding the roots, then the referenced elements. The parser edits it (links made absolute). */
function parse5Document(roots: Parse5Node[], referenced: Parse5Node[]): Parse5Node {
  const document: Parse5Node = { nodeName: '#document', mode: 'no-quirks', parentNode: null, childNodes: [] };
  const html = parse5Element('html', {}, document);
  parse5Element('head', {}, html);
  const body = parse5Element('body', {}, html);
  for (const node of [...roots, ...referenced]) {
    node.parentNode = body;
    body.childNodes!.push(node);
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
