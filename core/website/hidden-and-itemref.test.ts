import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractFacts } from './extract';
import { readHtml } from './html-document';

const page = (body: string) => extractFacts({ url: 'https://venue.example/events', contentType: 'text/html', body });
const names = (body: string) => page(body).events.map((e) => [e.name, e.startAt]);

describe('structured events hidden from the page’s readers', () => {
  it('makes no event of an h-event hidden on a page that visibly says there are none', () => {
    const hiddenBy = ['style="display:none"', 'style="color: red; DISPLAY: none !important"', 'hidden', 'aria-hidden="true"'];
    for (const attribute of hiddenBy) {
      const body = `<main><h1>CANCELLED. There are no events.</h1>
        <div class="h-event" ${attribute}><span class="p-name">Berlin AI Night</span>
        <time class="dt-start" datetime="2027-03-02T19:00:00+01:00">2 March</time></div></main>`;
      expect(names(body), attribute).toEqual([]);
    }
    // Hidden by an ancestor: the same.
    expect(
      names(`<p>No events.</p><section style="display: none"><div class="vevent"><span class="summary">Berlin AI Night</span>
        <abbr class="dtstart" title="2027-03-02T19:00:00+01:00">2 March</abbr></div></section>`),
    ).toEqual([]);
  });

  it('keeps a hidden h-event the page shows in its text (a registration page’s hidden hCalendar)', () => {
    const body = `<h1>Berlin AI Night</h1><p>2 March, 7 pm</p>
      <span class="vevent" style="display:none;"><span class="summary">Berlin AI Night</span>
      <span class="dtstart"><span class="value-title" title="2027-03-02T19:00:00+01:00"></span></span></span>`;
    expect(names(body)).toEqual([['Berlin AI Night', '2027-03-02T19:00:00+01:00']]);
  });

  it('makes no event of a hidden microdata or RDFa item, and still reads a hidden property of a shown one', () => {
    const hiddenItems = `<p>CANCELLED. There are no events.</p>
      <div style="display:none" itemscope itemtype="https://schema.org/Event"><span itemprop="name">Berlin AI Night</span>
      <meta itemprop="startDate" content="2027-03-02T19:00:00+01:00"></div>
      <div vocab="https://schema.org/"><div hidden typeof="Event"><span property="name">Berlin AI Night</span>
      <meta property="startDate" content="2027-03-02T19:00:00+01:00"></div></div>`;
    expect(names(hiddenItems)).toEqual([]);
    const shownItem = `<div itemscope itemtype="https://schema.org/Event"><h2 itemprop="name">Berlin AI Night</h2>
      <span itemprop="startDate" style="display:none">2027-03-02T19:00:00+01:00</span>2 March, 7 pm</div>`;
    expect(names(shownItem)).toEqual([['Berlin AI Night', '2027-03-02T19:00:00+01:00']]);
  });
});

describe('hCalendar properties in the elements an itemref names', () => {
  it('builds the elements the suite’s hCalendar itemrefs name (microformats/tests, heventitemref.html)', () => {
    const html = readFileSync(new URL('../../test/fixtures/microformats-tests/heventitemref.html', import.meta.url), 'utf8');
    const read = readHtml(html, 'https://example.com/', 1000);
    expect(read.microformatRoots).toHaveLength(2);
    expect(read.itemrefTargets.map((n) => n.attrs?.find((a) => a.name === 'id')?.value)).toEqual(['io-session07', 'io-location']);
  });

  it('reads an event’s start, end and place from them, before or after the event, and never loops', () => {
    const body = `<p id="when">Tuesday <time class="dtstart" datetime="2027-03-02T19:00:00+01:00">7 pm</time> to
        <time class="dtend" datetime="2027-03-02T21:00:00+01:00">9 pm</time></p>
      <div class="vevent" itemref="when where"><span class="summary">Berlin Machine Learning Meetup</span></div>
      <p id="where" itemref="where when"><span class="location">Factory Berlin</span></p>`;
    expect(page(body).events).toEqual([
      {
        name: 'Berlin Machine Learning Meetup',
        start: '2027-03-02T19:00:00+01:00',
        end: '2027-03-02T21:00:00+01:00',
        startAt: '2027-03-02T19:00:00+01:00',
        endAt: '2027-03-02T21:00:00+01:00',
        place: 'Factory Berlin',
        venue: 'Factory Berlin',
      },
    ]);
  });
});
