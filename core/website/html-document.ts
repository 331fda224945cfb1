import { type ChildNode, type Document, DomHandler, type Element, isTag, isText, type Text } from 'domhandler';
import { Parser } from 'htmlparser2';
import { calendarLinkOf } from './calendar-links';
import { clean } from './event-fact';
import { resolveLink } from './links';
import { microdataActsOn } from './microdata-focus';
import { rdfaActsOn } from './rdfa-focus';
import { keepWithAncestors } from './rdf-nodes';

/**
 * What one walk over a parsed page finds: everything the extractors need, so the page is parsed once and
 * walked once, and the format readers that need the tree (microdata, RDFa, microformats) run only when the
 * walk saw their markup.
 */
export interface HtmlPage {
  document: Document;
  title?: string;
  /** The address relative links resolve against: the page's URL, or its <base href>. */
  baseUrl: string;
  /** The text of each <script type="application/ld+json">, unparsed. */
  jsonLd: string[];
  /** Readable text for the prompt: boilerplate dropped, blocks as lines, at most `textLimit` characters. */
  text: string;
  /** http(s) addresses of calendars the page names (.ics links, webcal:, rel=alternate text/calendar), deduplicated. */
  calendarLinks: string[];
  /** True when the page nests elements deeper than MAX_DEPTH: it was read up to there. */
  truncated: boolean;
  /** Which structured markup the page carries. */
  has: { microdata: boolean; rdfa: boolean };
  /**
   * For each RDF parser, the elements it acts on and their ancestors: the subtrees replayed to it (see replay),
   * found in this walk so no format walks the whole tree again.
   */
  focusElements: { microdata: Set<Element>; rdfa: Set<Element> };
  /** The outermost h-event / vevent elements (microformats), in page order. */
  microformatRoots: Element[];
}

// Elements whose content is never part of the readable text: code, styling, and the navigation boilerplate
// around the page's main content.
const DROP = new Set([
  'head',
  'title',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'iframe',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'button',
  'select',
]);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'li',
  'ul',
  'ol',
  'tr',
  'table',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'br',
  'hr',
  'dd',
  'dt',
  'dl',
  'blockquote',
  'pre',
  'address',
  'figure',
  'figcaption',
]);
const CELL = new Set(['td', 'th']);

const LINE = { marker: 'line' } as const;
const SPACE = { marker: 'space' } as const;
const UNDROP = { marker: 'undrop' } as const;
const UNRELATE = { marker: 'unrelate' } as const;
type Marker = typeof LINE | typeof SPACE | typeof UNDROP | typeof UNRELATE;

// Root class names of an event in microformats2 (h-event) and microformats1 (hCalendar's vevent).
const MF_EVENT = /(?:^|\s)(?:h-event|vevent)(?:\s|$)/;

/**
 * How deep a page may nest elements. htmlparser2 keeps its open elements with Array#unshift, so each element
 * opened costs the current depth: a hostile page of nested <div>s costs quadratic time (100,000 levels took
 * 30 s). Real pages stay far below this (browsers flatten beyond 512); deeper content is not read.
 */
export const MAX_DEPTH = 1000;

class DepthBoundHandler extends DomHandler {
  htmlParser: Parser | undefined;
  truncated = false;

  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    // The stack holds the document too.
    if (this.tagStack.length > MAX_DEPTH + 1 && !this.truncated) {
      this.truncated = true;
      this.htmlParser?.pause();
    }
  }
}

/** Parses a page with htmlparser2 (entities decoded, raw text in script/style, as parseDocument does), depth-bound. */
function parse(html: string): { document: Document; truncated: boolean } {
  const handler = new DepthBoundHandler();
  const parser = new Parser(handler);
  handler.htmlParser = parser;
  parser.end(html);
  return { document: handler.root, truncated: handler.truncated };
}

/** Parses a page once and walks it once. */
export function readHtml(html: string, pageUrl: string, textLimit: number): HtmlPage {
  const { document, truncated } = parse(html);
  let title: string | undefined;
  let base: string | undefined;
  const jsonLd: string[] = [];
  const rawCalendarLinks: string[] = [];
  const has = { microdata: false, rdfa: false };
  const focusElements = { microdata: new Set<Element>(), rdfa: new Set<Element>() };
  const microformatRoots: Element[] = [];
  const pieces: string[] = [];
  let textLength = 0;
  const addText = (s: string) => {
    // Twice the limit: blank lines and runs of spaces collected here are dropped before the text is cut.
    if (textLength > 2 * textLimit) return;
    // Nested blocks close many lines at once; one break says the same.
    if (s === '\n' && pieces[pieces.length - 1] === '\n') return;
    pieces.push(s);
    textLength += s.length;
  };

  // An explicit stack, not recursion: a hostile page can nest elements deeper than the call stack. Markers
  // on the stack close an element after its children: a line break after a block, a space after a cell, and
  // the end of an element whose text is dropped (it is still walked for structured data: JSON-LD sits in
  // <head>, microdata in a <footer>).
  const stack: (ChildNode | Marker)[] = [...document.children].reverse();
  let droppedDepth = 0;
  // How many open elements have an RDFa rel or rev (see rdfaActsOn).
  let relations = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === LINE || node === SPACE) {
      if (droppedDepth === 0) addText(node === LINE ? '\n' : ' ');
      continue;
    }
    if (node === UNDROP) {
      droppedDepth--;
      continue;
    }
    if (node === UNRELATE) {
      relations--;
      continue;
    }
    if (isText(node as ChildNode)) {
      if (droppedDepth === 0) addText((node as Text).data);
      continue;
    }
    if (!isTag(node as ChildNode)) continue;
    const element = node as Element;
    const name = element.name;
    const a = element.attribs;
    if (name === 'title' && title === undefined && !insideSvg(element)) title = clean(textOf(element));
    else if (name === 'base' && base === undefined && a.href) base = a.href;
    else if (name === 'script' && /^\s*application\/ld\+json\s*(?:;|$)/i.test(a.type ?? '')) jsonLd.push(textOf(element));
    if (name === 'a' || name === 'link') {
      const link = calendarLinkOf(name, a);
      if (link) rawCalendarLinks.push(link);
    }
    if (!has.microdata && 'itemscope' in a) has.microdata = true;
    if (!has.rdfa && 'typeof' in a) has.rdfa = true;
    if (microdataActsOn(element)) keepWithAncestors(element, focusElements.microdata);
    if (rdfaActsOn(element, relations > 0)) keepWithAncestors(element, focusElements.rdfa);
    if ('rel' in a || 'rev' in a) {
      relations++;
      stack.push(UNRELATE);
    }
    // includes() first: a regex per element with a class is most of the walk's cost on a large page.
    if (a.class?.includes('event') && MF_EVENT.test(a.class) && !insideAny(element, microformatRoots)) microformatRoots.push(element);

    if (DROP.has(name) || 'hidden' in a) {
      droppedDepth++;
      stack.push(UNDROP);
    } else if (BLOCK.has(name)) {
      if (droppedDepth === 0) addText('\n');
      stack.push(LINE);
    } else if (CELL.has(name)) {
      stack.push(SPACE);
    }
    for (let i = element.children.length - 1; i >= 0; i--) stack.push(element.children[i]!);
  }

  const baseUrl = resolveLink(base, pageUrl) ?? pageUrl;
  const calendarLinks = [...new Set(rawCalendarLinks.map((l) => resolveLink(l.replace(/^webcals?:/i, 'https:'), baseUrl)))].filter(
    (l): l is string => l !== undefined,
  );
  return {
    document,
    title,
    baseUrl,
    jsonLd,
    text: readableText(pieces.join(''), textLimit),
    calendarLinks,
    truncated,
    has,
    focusElements,
    microformatRoots,
  };
}

// Roots come in page order, so an element inside an earlier root is inside the last one found.
function insideAny(node: Element, roots: Element[]): boolean {
  const last = roots[roots.length - 1];
  if (!last) return false;
  for (let p = node.parent; p; p = p.parent) if (p === last) return true;
  return false;
}

function insideSvg(node: Element): boolean {
  for (let p = node.parent; p; p = p.parent) if (isTag(p) && p.name === 'svg') return true;
  return false;
}

/** The text inside an element (script and title contents are a single raw text child). */
export function textOf(node: Element): string {
  let s = '';
  for (const child of node.children) if (isText(child)) s += child.data;
  return s;
}

function readableText(raw: string, maxChars: number): string {
  const text = raw
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
