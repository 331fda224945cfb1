import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, readHtml } from './html-document';

const fixture = (name: string) => readFileSync(new URL(`../../dev/standins/sites/${name}`, import.meta.url), 'utf8');

describe('readHtml', () => {
  it('keeps the content and drops scripts, styles, navigation, cookie banners and footers', () => {
    const page = readHtml(fixture('berlin-ai.html'), 'https://ai-events.example/berlin', 20_000);
    expect(page.title).toBe('AI Events Berlin – Conferences & Meetups');
    expect(page.text).toContain('AI conferences and meetups in Berlin');
    expect(page.text).toContain('Hand-picked events for engineers, researchers & founders.');
    expect(page.text).toContain('18–19 June 2026 · bcc Berlin Congress Center');
    for (const noise of ['gtag', 'dataLayer', 'Newsletter', 'cookies', 'Imprint', '.hero', '@graph'])
      expect(page.text).not.toContain(noise);
    expect(page.jsonLd).toHaveLength(3);
  });

  it('reads what a regex misreads: a > inside an attribute, </script> inside a comment, entities without a table', () => {
    const html = `<title>Fish &amp; Chips &mdash; &#x1F41F;</title>
      <p data-note="a > b">Shown</p><!-- <script type="application/ld+json">{"@type":"Event"}</script> -->
      <p>Caf&eacute; <b>night</b><br>Line two</p><table><tr><td>Mon</td><td>18:00</td></tr></table>`;
    const page = readHtml(html, 'https://x.example/', 1000);
    expect(page.title).toBe('Fish & Chips — 🐟');
    expect(page.jsonLd).toEqual([]);
    expect(page.text).toBe('Shown\nCafé night\nLine two\nMon 18:00');
  });

  it('takes relative links against <base href>, and the outermost h-event only', () => {
    const page = readHtml(
      '<head><base href="/en/"></head><div itemscope></div><div class="card h-event">x<div class="h-event">nested</div></div><p typeof="Event">',
      'https://x.example/page',
      1000,
    );
    expect(page.baseUrl).toBe('https://x.example/en/');
    expect(page.microdata).toEqual([]);
    expect(page.microformatRoots).toHaveLength(1);
  });

  it('reads nesting up to MAX_DEPTH without recursion, stops below it, and bounds the text', () => {
    const nested = (n: number) => `${'<div>'.repeat(n)}deep${'</div>'.repeat(n)}<p>after</p>`;
    expect(readHtml(nested(MAX_DEPTH), 'https://x.example/', 1000)).toMatchObject({ text: 'deep\nafter', truncated: false });
    // 400,000 levels fit in 2 MB; the parser's own stack made this quadratic (30 s for 100,000).
    expect(readHtml(nested(400_000), 'https://x.example/', 1000)).toMatchObject({ text: '', truncated: true });
    expect(readHtml(`<p>${'word '.repeat(1000)}</p>`, 'https://x.example/', 100).text).toHaveLength(101);
  });

  it('reads a 2 MB page, its text cut at the limit (its cost is in make bench ONLY=extraction)', () => {
    const card = (i: number) =>
      `<article class="event"><h2>Event ${i}</h2><p>Some description of the event with a <a href="/e/${i}">link</a>.</p></article>\n`;
    let html = '<html><body>';
    for (let i = 0; html.length < 2 * 1024 * 1024; i++) html += card(i);
    html += '</body></html>';
    const page = readHtml(html, 'https://x.example/', 20_000);
    expect(page.text.length).toBe(20_001);
    expect(page.text.startsWith('Event 0\nSome description of the event with a link.\nEvent 1\n')).toBe(true);
  });
});
