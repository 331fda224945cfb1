import { describe, expect, it } from 'vitest';
import { sanitizeSearchSuggestions } from './search-suggestions';

describe("Google's Search Suggestions chip", () => {
  it('keeps the logo\'s viewBox as written, so the "G" renders at its size', () => {
    const chip =
      '<div class="logo"><svg class="logo-light" width="18" height="18" viewBox="0 0 48 48"><path fill="#EA4335" d="M24 9.5c3.54"></path></svg></div>';
    const out = sanitizeSearchSuggestions(chip);
    expect(out).toContain('viewBox="0 0 48 48"');
    expect(out).toContain('fill="#EA4335"');
  });

  it('still drops what runs, in whichever case it is written', () => {
    const out = sanitizeSearchSuggestions(
      '<a ONCLICK="x()" onclick="y()" HREF="javascript:z()" href="https://www.google.com/search?q=a">a</a><svg ONLOAD="x()"></svg>',
    );
    expect(out).not.toMatch(/onclick|onload|javascript/i);
    expect(out).toContain('href="https://www.google.com/search?q=a"');
    expect(out).toContain('target="_blank"');
  });
});
