import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../dev/harness/real-world-corpus';
import { repeated } from '../../dev/harness/repeated-text';
import { extractFacts } from './extract';
import { MAX_FACTS } from './fact-sink';
import type { WebsitePage } from './fetch';
import { pageKind } from './page-kind';
import { joinPageParts, type RdfPart, type RestPart, readPagePart } from './page-parts';

/** The page read in its two parts, each sent across as JSON as between threads, then joined. */
function inParts(page: WebsitePage) {
  const across = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  const rdf = across(readPagePart(page, 'rdf')) as RdfPart;
  const rest = across(readPagePart(page, 'rest')) as RestPart;
  return joinPageParts(page.url, rdf, rest);
}

const page = (body: string): WebsitePage => ({ url: 'https://shows.example/', contentType: 'text/html', body });
const microdataEvent = (i: number) =>
  `<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">Talk ${i}</span><meta itemprop="startDate" content="2026-05-28"></div>`;
const hEvent = (i: number) => `<div class="h-event"><span class="p-name">Show ${i}</span><time class="dt-start">2026-05-29</time></div>`;

describe('a page read in two parts', () => {
  it('reads every HTML page of the real-world corpus exactly as one pass does', () => {
    const pages = loadCorpus()
      .filter((f) => pageKind(f.contentType, f.body) === 'html')
      .map((f) => ({ url: f.page_url, contentType: f.contentType, body: f.body }));
    expect(pages.length).toBeGreaterThanOrEqual(90);
    for (const p of pages) expect(JSON.stringify(inParts(p)), p.url).toBe(JSON.stringify(extractFacts(p)));
  });

  it('keeps and counts the same facts past the bound, the formats in the same order', () => {
    // Microdata over the bound, then h-events: the microdata's first MAX_FACTS kept, the rest and every h-event
    // root counted as dropped.
    const body = repeated(2 * 1024 * 1024, '<html><body>', microdataEvent, `${hEvent(0)}</body></html>`);
    const over = page(body);
    const whole = extractFacts(over);
    expect(whole.droppedEvents).toBeGreaterThan(0);
    // Microformats roots the bound leaves unread depend on the other formats' count: such a page is read whole.
    expect(inParts(over)).toBeUndefined();
    const microdataOnly = page(body.replace(hEvent(0), ''));
    const joined = inParts(microdataOnly);
    expect(joined?.events).toHaveLength(MAX_FACTS);
    expect(JSON.stringify(joined)).toBe(JSON.stringify(extractFacts(microdataOnly)));
  });

  it('joins h-events that fit under the bound beside JSON-LD and microdata', () => {
    const jsonLd = (i: number) =>
      `<script type="application/ld+json">{"@type":"Event","name":"Gig ${i}","startDate":"2026-06-01"}</script>`;
    const body = `<title>Mixed</title>${Array.from({ length: 50 }, (_, i) => jsonLd(i) + microdataEvent(i) + hEvent(i)).join('')}`;
    const joined = inParts(page(body));
    expect(joined?.events.map((f) => f.name).slice(48, 52)).toEqual(['Gig 48', 'Gig 49', 'Talk 0', 'Talk 1']);
    expect(joined?.events.at(-1)?.name).toBe('Show 49');
    expect(JSON.stringify(joined)).toBe(JSON.stringify(extractFacts(page(body))));
  });
});
