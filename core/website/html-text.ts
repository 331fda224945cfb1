// Elements whose content is never part of the readable text: code, styling, and the navigation boilerplate
// around the page's main content.
const DROP = ['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'nav', 'header', 'footer', 'aside', 'form', 'button', 'select'];
const BLOCK = /<\/?(?:p|div|section|article|main|li|ul|ol|tr|table|h[1-6]|br|hr|dd|dt|dl|blockquote|pre|address)\b[^>]*>/gi;

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  euro: '€',
  pound: '£',
  copy: '©',
  middot: '·',
  bull: '•',
};

/** Decodes the HTML character references a page's text commonly carries. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** The page's <title>, if any. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = m ? decodeEntities(m[1]!).replace(/\s+/g, ' ').trim() : '';
  return title || undefined;
}

/**
 * The readable text of a page: scripts, styles and navigation boilerplate removed, block elements as line
 * breaks, whitespace collapsed. A regex pass, not a DOM: the result only feeds a prompt, never a browser.
 */
export function htmlToText(html: string, maxChars = 20_000): string {
  let s = html.replace(/<!--[\s\S]*?-->/g, ' ');
  for (const tag of DROP) {
    s = s.replace(new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?<\\/${tag}\\s*>`, 'gi'), ' ');
  }
  s = s.replace(/<head\b[^>]*>[\s\S]*?<\/head\s*>/i, ' ');
  s = s.replace(BLOCK, '\n').replace(/<[^>]+>/g, ' ');
  s = decodeEntities(s);
  const lines = s
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .filter(Boolean);
  const text = lines.join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
