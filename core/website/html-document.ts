import { Parser } from 'htmlparser2';
import { calendarLinkOf } from './calendar-links';
import { clean } from './event-fact';
import { resolveLink } from './links';
import { microdataFeed } from './microdata';
import { MicroformatRoots, type Parse5Node } from './microformats';
import type { Quad } from './rdf-nodes';
import { rdfaFeed } from './rdfa';
import type { PageReader } from './tag-feed';

/**
 * What one parse of a page finds: everything the extractors need, so the page is parsed once, and no tree is
 * built but the microformat roots'. The RDF parsers are fed as the page is parsed (see FocusedFeed).
 */
export interface HtmlPage {
  title?: string;
  /** The address relative links resolve against: the page's URL, or its <base href>. */
  baseUrl: string;
  /** The text of each <script type="application/ld+json">, unparsed. */
  jsonLd: string[];
  /** Readable text for the prompt: boilerplate dropped, blocks as lines, at most `textLimit` characters. */
  text: string;
  /** The same without what is hidden from readers (see hiddenFromReaders): what people see of the page. */
  shownText: string;
  /** http(s) addresses of calendars the page names (.ics links, webcal:, rel=alternate text/calendar), deduplicated. */
  calendarLinks: string[];
  /** True when the page nests elements deeper than MAX_DEPTH: it was read up to there. */
  truncated: boolean;
  /** What microdata-rdf-streaming-parser made of the page; empty when the page has no itemscope. */
  microdata: Quad[];
  /** What rdfa-streaming-parser made of the page; empty when the page has no typeof (no typed node, no event). */
  rdfa: Quad[];
  /** The outermost h-event / vevent elements (microformats), in page order. */
  microformatRoots: Parse5Node[];
  /** Those of microformatRoots hidden from the page's readers (see hiddenFromReaders). */
  hiddenMicroformatRoots: ReadonlySet<Parse5Node>;
  /** Elements outside microformatRoots that an itemref names (hCalendar properties kept elsewhere), with their subtrees. */
  itemrefTargets: Parse5Node[];
}

// Elements whose content is never part of the readable text: code, styling, and the navigation boilerplate
// around the page's main content. They are still read for structured data (JSON-LD sits in <head>, microdata
// in a <footer>).
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

/**
 * How deep a page may nest elements. htmlparser2 keeps its open elements with Array#unshift, so each element
 * opened costs the current depth: a hostile page of nested <div>s costs quadratic time (100,000 levels took
 * 30 s). Real pages stay far below this (browsers flatten beyond 512); deeper content is not read.
 */
export const MAX_DEPTH = 1000;

// What an element's close does, besides ending it.
const CLOSE_LINE = 1;
const CLOSE_SPACE = 2;
const CLOSE_UNDROP = 4;
const CLOSE_UNRELATE = 8;
const CLOSE_UNHIDE = 16;

const LD_JSON = /^\s*application\/ld\+json\s*(?:;|$)/i;
const DISPLAY_NONE = /(?:^|;)\s*display\s*:\s*none\s*(?:!\s*important\s*)?(?:;|$)/i;

/**
 * Whether an element is hidden from the page's readers by its own markup: the `hidden` attribute, an inline
 * `display: none`, or `aria-hidden="true"` (hidden from assistive technology, which reads what people see).
 * Its subtree is no part of the page's text, and no event stands on it alone (see PageReader.open's `hidden`).
 * Stylesheets are not read: a class that hides is not seen.
 */
export function hiddenFromReaders(a: Record<string, string>): boolean {
  return (
    'hidden' in a || a['aria-hidden']?.trim().toLowerCase() === 'true' || (a.style?.includes(':') === true && DISPLAY_NONE.test(a.style))
  );
}

// An itemref attribute's value: the ids an item (microdata) or an hCalendar event (microformats) takes in.
const ITEMREF = /\bitemref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

/** The ids the page's itemref attributes name, when it has any: their elements are kept for the microformats. */
function referencedIds(html: string): Set<string> | undefined {
  if (!/itemref/i.test(html)) return undefined;
  const ids = new Set<string>();
  for (const m of html.matchAll(ITEMREF)) for (const id of (m[1] ?? m[2] ?? m[3] ?? '').split(/\s+/)) if (id) ids.add(id);
  return ids;
}

// Attribute names reach the readers lowercased and never through an entity, so a page whose text nowhere holds
// one of these, in any case, has no such attribute: its microdata or RDFa would make no event (see readHtml).
const ITEMSCOPE = /itemscope/i;
const TYPEOF = /typeof/i;

/**
 * Parses a page once, with htmlparser2's callbacks (entities decoded, raw text in script/style, as
 * parseDocument does) and no tree: readable text, title, base, JSON-LD and calendar links are read as the
 * tags go by, and each structured-data reader is fed its part (see PageReader). The microdata and
 * RDFa parsers are not fed at all when the page's text has no `itemscope` or no `typeof`: their quads would
 * make no event. Depth-bound (MAX_DEPTH).
 */
export function readHtml(html: string, pageUrl: string, textLimit: number): HtmlPage {
  const microdata = ITEMSCOPE.test(html) ? microdataFeed(pageUrl) : undefined;
  const rdfa = TYPEOF.test(html) ? rdfaFeed(pageUrl) : undefined;
  const microformats = new MicroformatRoots(referencedIds(html));
  // RDFa last: it gets a copy of the attributes, but the others read them first anyway.
  const readers: PageReader[] = [microformats];
  if (microdata) readers.push(microdata.reader);
  if (rdfa) readers.push(rdfa.reader);
  let title: string | undefined;
  let base: string | undefined;
  const jsonLd: string[] = [];
  const rawCalendarLinks: string[] = [];
  const has = { microdata: false, rdfa: false };
  const all = textPieces(textLimit);
  const shown = textPieces(textLimit);
  // The text outside dropped elements, and of it what is not hidden from readers too.
  const addText = (s: string) => {
    if (droppedDepth > 0) return;
    all.add(s);
    if (hiddenDepth === 0) shown.add(s);
  };

  // Per open element, what its close does (CLOSE_*), and the text being gathered for the first <title> and
  // each JSON-LD script (the open element's own text: both hold raw text only).
  const closes: number[] = [];
  let depth = 0;
  let truncated = false;
  let droppedDepth = 0;
  let hiddenDepth = 0;
  let svgDepth = 0;
  // How many open elements have an RDFa rel or rev (see rdfaActsOn).
  let relations = 0;
  let gathering: { into: 'title' | 'json-ld'; depth: number; text: string } | undefined;

  const parser = new Parser({
    onopentag(name, a) {
      depth++;
      if (name === 'svg') svgDepth++;
      if (name === 'title' && title === undefined && svgDepth === 0 && !gathering) gathering = { into: 'title', depth, text: '' };
      else if (name === 'base' && base === undefined && a.href) {
        base = a.href;
        const resolved = resolveLink(base, pageUrl);
        if (resolved) microdata?.setBase(resolved);
      } else if (name === 'script' && LD_JSON.test(a.type ?? '') && !gathering) gathering = { into: 'json-ld', depth, text: '' };
      if (name === 'a' || name === 'link') {
        const link = calendarLinkOf(name, a);
        if (link) rawCalendarLinks.push(link);
      }
      if (!has.microdata && 'itemscope' in a) has.microdata = true;
      if (!has.rdfa && 'typeof' in a) has.rdfa = true;
      const underRelation = relations > 0;
      let close = 0;
      if (hiddenDepth > 0 || hiddenFromReaders(a)) {
        hiddenDepth++;
        close |= CLOSE_UNHIDE;
      }
      for (const reader of readers) reader.open(name, a, underRelation, hiddenDepth > 0);

      if ('rel' in a || 'rev' in a) {
        relations++;
        close |= CLOSE_UNRELATE;
      }
      if (DROP.has(name) || 'hidden' in a) {
        droppedDepth++;
        close |= CLOSE_UNDROP;
      } else if (BLOCK.has(name)) {
        addText('\n');
        close |= CLOSE_LINE;
      } else if (CELL.has(name)) close |= CLOSE_SPACE;
      closes.push(close);
      // htmlparser2 keeps its open elements with Array#unshift: each element opened costs the current depth.
      if (depth > MAX_DEPTH && !truncated) {
        truncated = true;
        parser.pause();
      }
    },
    ontext(data) {
      if (gathering?.depth === depth) gathering.text += data;
      addText(data);
      for (const reader of readers) reader.text(data);
    },
    onclosetag(name) {
      if (gathering?.depth === depth) {
        if (gathering.into === 'json-ld') jsonLd.push(gathering.text);
        else title = clean(gathering.text);
        gathering = undefined;
      }
      for (const reader of readers) reader.close();
      const close = closes.pop() ?? 0;
      if (close & CLOSE_UNRELATE) relations--;
      if (close & CLOSE_UNDROP) droppedDepth--;
      else if (close & CLOSE_LINE) addText('\n');
      else if (close & CLOSE_SPACE) addText(' ');
      if (close & CLOSE_UNHIDE) hiddenDepth--;
      if (name === 'svg') svgDepth--;
      depth--;
    },
  });
  parser.end(html);
  for (const reader of readers) reader.end();

  const baseUrl = resolveLink(base, pageUrl) ?? pageUrl;
  const calendarLinks = [...new Set(rawCalendarLinks.map((l) => resolveLink(l.replace(/^webcals?:/i, 'https:'), baseUrl)))].filter(
    (l): l is string => l !== undefined,
  );
  return {
    title,
    baseUrl,
    jsonLd,
    text: readableText(all.join(), textLimit),
    shownText: readableText(shown.join(), textLimit),
    calendarLinks,
    truncated,
    microdata: microdata && has.microdata ? microdata.quads() : [],
    rdfa: rdfa && has.rdfa ? rdfa.quads() : [],
    microformatRoots: microformats.roots,
    hiddenMicroformatRoots: microformats.hidden,
    itemrefTargets: microformats.referenced,
  };
}

/** Text gathered as the page is parsed, up to twice `limit` (blank lines and runs of spaces are dropped later). */
function textPieces(limit: number) {
  const pieces: string[] = [];
  let length = 0;
  return {
    add(s: string) {
      if (length > 2 * limit) return;
      // Nested blocks close many lines at once; one break says the same.
      if (s === '\n' && pieces[pieces.length - 1] === '\n') return;
      pieces.push(s);
      length += s.length;
    },
    join: () => pieces.join(''),
  };
}

function readableText(raw: string, maxChars: number): string {
  const text = raw
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
