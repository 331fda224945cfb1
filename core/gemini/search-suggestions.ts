import sanitizeHtml from 'sanitize-html';

/**
 * Google's Search Suggestions chip (groundingMetadata.searchEntryPoint.renderedContent) made safe to show: its
 * markup, styles and links kept, anything that runs or loads (scripts, frames, forms, event handlers,
 * non-http links) dropped, and every link opened in a new tab, as Google's display rules ask. The result is
 * still shown only in a sandboxed frame whose own policy runs no script (api/routes/searches.ts).
 */
export function sanitizeSearchSuggestions(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['style', 'div', 'span', 'a', 'svg', 'g', 'path', 'circle', 'rect', 'defs', 'br', 'b', 'i', 'p', 'img'],
    allowedAttributes: {
      '*': ['class', 'style', 'aria-label', 'aria-hidden', 'role'],
      a: ['href', 'target', 'rel'],
      img: ['src', 'alt', 'width', 'height'],
      svg: ['viewBox', 'width', 'height', 'xmlns', 'fill'],
      path: ['d', 'fill', 'fill-rule', 'clip-rule'],
      circle: ['cx', 'cy', 'r', 'fill'],
      rect: ['x', 'y', 'width', 'height', 'rx', 'fill'],
      g: ['fill'],
    },
    allowedSchemes: ['https'],
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    // Google's chip is styled by its own <style> block; CSS cannot run script here (no scripts, no frames).
    allowVulnerableTags: true,
    // htmlparser2 lowercases attribute names by default, which turned Google's `viewBox` into `viewbox` before the
    // allow-list (matched exactly) saw it, so the "G" logo lost its view box. Names are kept as written: an
    // attribute spelt in any other case than the list's is dropped, never let through.
    parser: { lowerCaseAttributeNames: false },
    transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
  });
}
