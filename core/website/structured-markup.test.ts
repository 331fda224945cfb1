import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import type { EventFact } from './event-fact';
import { FactSink } from './fact-sink';
import { readHtml } from './html-document';
import { eventsFromMicrodata } from './microdata';
import { eventsFromMicroformats } from './microformats';
import { eventsFromRdfa, rdfaFeed } from './rdfa';
import { rdfaFocus } from './rdfa-focus';
import { type FeedFocus, FocusedFeed } from './tag-feed';

// Markup shaped after schema.org's own Event examples (microdata and RDFa tabs of https://schema.org/Event)
// and the microformats wiki's h-event and hCalendar examples (https://microformats.org/wiki/h-event).

function read(html: string, reader: 'microdata' | 'rdfa' | 'microformats', url = 'https://venue.example/shows/'): EventFact[] {
  const page = readHtml(html, url, 1000);
  const sink = new FactSink();
  const options = { baseUrl: page.baseUrl, sink };
  if (reader === 'microdata') eventsFromMicrodata(page.microdata, options);
  else if (reader === 'rdfa') eventsFromRdfa(page.rdfa, options);
  else eventsFromMicroformats(page, options);
  return sink.events;
}

/** What a parser is sent of a page through its focus: '<name attr=value …>', '</>' and text, in order. */
function sentTo(focus: FeedFocus, html: string): string[] {
  const sent: string[] = [];
  const feed = new FocusedFeed(
    {
      onTagOpen: (name, attributes) => sent.push(`<${[name, ...Object.entries(attributes).map(([k, v]) => `${k}=${v}`)].join(' ')}>`),
      onText: (data) => sent.push(data),
      onTagClose: () => sent.push('</>'),
      onEnd: () => sent.push('end'),
    },
    focus,
  );
  let relations = 0;
  const rels: boolean[] = [];
  new Parser({
    onopentag: (name, attribs) => {
      feed.open(name, attribs, relations > 0, false);
      rels.push('rel' in attribs || 'rev' in attribs);
      if (rels[rels.length - 1]) relations++;
    },
    ontext: (data) => feed.text(data),
    onclosetag: () => {
      if (rels.pop()) relations--;
      feed.close();
    },
  }).end(html);
  feed.end();
  return sent;
}

describe('microdata', () => {
  it('reads a schema.org Event with its Place, PostalAddress and offers; relative links resolved', () => {
    const html = `<div itemscope itemtype="https://schema.org/MusicEvent">
      <a itemprop="url" href="bluebird-2026-05-28"><span itemprop="name">Nils Frahm live</span></a>
      <meta itemprop="startDate" content="2026-05-28T19:00">May 28, 7pm
      <div itemprop="location" itemscope itemtype="https://schema.org/Place">
        <span itemprop="name">Bluebird Theater</span>
        <div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">
          <span itemprop="streetAddress">3317 E Colfax Ave</span>, <span itemprop="addressLocality">Denver</span>,
          <span itemprop="addressRegion">CO</span> <span itemprop="addressCountry">US</span>
        </div>
      </div>
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">35</span> <meta itemprop="priceCurrency" content="USD"></div>
      <link itemprop="eventStatus" href="https://schema.org/EventRescheduled">
    </div>`;
    expect(read(html, 'microdata')).toEqual([
      {
        name: 'Nils Frahm live',
        start: '2026-05-28T19:00',
        place: 'Bluebird Theater, 3317 E Colfax Ave, Denver, CO, US',
        url: 'https://venue.example/shows/bluebird-2026-05-28',
        offers: '35 USD',
        startAt: '2026-05-28T19:00',
        venue: 'Bluebird Theater',
        address: '3317 E Colfax Ave, Denver, CO, US',
        city: 'Denver',
        region: 'CO',
        country: 'US',
        online: false,
        status: 'moved',
      },
    ]);
  });

  it('reads itemid as the event’s identity and data-vocabulary.org events under schema.org names', () => {
    const html = `<div itemscope itemtype="https://schema.org/Festival" itemid="https://venue.example/festival-2026">
        <span itemprop="name">Harbour Festival</span><time itemprop="startDate" datetime="2026-08-01">1 Aug</time></div>
      <div itemscope itemtype="http://data-vocabulary.org/Event">
        <a href="/e/9" itemprop="url"><span itemprop="summary">Wine tasting</span></a>
        <time itemprop="startDate" datetime="2026-08-02T18:00">2 Aug, 6pm</time>
        <span itemprop="location" itemscope itemtype="http://data-vocabulary.org/Organization"><span itemprop="name">Cellar Bar</span>
          <span itemprop="address" itemscope itemtype="http://data-vocabulary.org/Address"><span itemprop="locality">Porto</span></span></span>
      </div>`;
    const [festival, tasting] = read(html, 'microdata');
    expect(festival).toMatchObject({ name: 'Harbour Festival', startAt: '2026-08-01', uid: 'https://venue.example/festival-2026' });
    expect(tasting).toMatchObject({
      name: 'Wine tasting',
      startAt: '2026-08-02T18:00',
      url: 'https://venue.example/e/9',
      venue: 'Cellar Bar',
      city: 'Porto',
    });
  });
});

describe('RDFa', () => {
  it('reads schema.org events with vocab and typeof, and data-vocabulary.org events with a prefix', () => {
    const html = `<html><head><base href="https://venue.example/"></head><body>
      <div vocab="https://schema.org/" typeof="TheaterEvent">
        <a property="url" href="plays/hamlet"><span property="name">Hamlet</span></a>
        <time property="startDate" datetime="2026-10-02T19:30:00-06:00">2 October</time>
        <div property="location" typeof="Place"><span property="name">Buell Theatre</span>
          <div property="address" typeof="PostalAddress"><span property="addressLocality">Denver</span></div></div>
      </div>
      <div xmlns:v="http://rdf.data-vocabulary.org/#" typeof="v:Event">
        <span property="v:summary">Jazz brunch</span><span property="v:startDate" content="2026-10-04T11:00">4 Oct</span>
      </div></body></html>`;
    const [play, brunch] = read(html, 'rdfa', 'https://venue.example/season/');
    expect(play).toMatchObject({
      name: 'Hamlet',
      startAt: '2026-10-02T19:30:00-06:00',
      url: 'https://venue.example/plays/hamlet',
      venue: 'Buell Theatre',
      city: 'Denver',
    });
    expect(brunch).toMatchObject({ name: 'Jazz brunch', startAt: '2026-10-04T11:00' });
  });

  it('sends the parser a link only where it makes a triple: completing a rel above it, not a link elsewhere', () => {
    const html = `<div vocab="https://schema.org/" typeof="Event"><span property="name">Jazz</span>
      <meta property="startDate" content="2026-10-02T19:30">
      <div rel="url"><a href="https://venue.example/jazz">Tickets</a></div><a href="https://elsewhere.example/">Elsewhere</a></div>`;
    expect(read(html, 'rdfa')).toMatchObject([{ name: 'Jazz', url: 'https://venue.example/jazz' }]);
    const sent = sentTo(rdfaFocus, html);
    expect(sent.filter((e) => e.startsWith('<a'))).toEqual(['<a href=https://venue.example/jazz>']);
    // Text only inside a value: the name's, not the ticket link's.
    expect(sent.filter((e) => !e.startsWith('<') && e !== 'end' && e.trim())).toEqual(['Jazz']);
  });

  it('hands the parser a copy of the attributes, which it edits, so the other readers see them as parsed', () => {
    const feed = rdfaFeed('https://venue.example/');
    const link = { property: 'url', rel: 'tag', href: 'https://x.example/jazz' };
    feed.reader.open('div', { vocab: 'https://schema.org/', typeof: 'Event' }, false, false);
    feed.reader.open('a', link, false, false);
    feed.reader.end();
    expect(feed.quads().length).toBeGreaterThan(0);
    expect(link).toEqual({ property: 'url', rel: 'tag', href: 'https://x.example/jazz' });
  });

  it('reads a value whose content is a page of markup (its cost is in make bench ONLY=extraction)', () => {
    const chapters = '<p>Chapter <b>one</b>.</p>'.repeat(20_000);
    const html = `<div vocab="https://schema.org/" typeof="Event"><span property="name">Reading</span>
      <meta property="startDate" content="2026-10-02T19:30"><div property="description">${chapters}</div></div>
      <div>${chapters}</div>`;
    const [reading] = read(html, 'rdfa');
    expect(reading).toMatchObject({ name: 'Reading', startAt: '2026-10-02T19:30' });
    expect(reading!.description).toMatch(/^Chapter one\.Chapter one\./);
  });
});

describe('microformats', () => {
  it("reads an h-event from the page's own parse, its e-content holding a template, markup and a relative link", () => {
    // microformats-parser drops templates and left a hole that its serialiser of e-* values failed on.
    const html = `<div class="h-event"><h1 class="p-name">Talk</h1><time class="dt-start" datetime="2026-10-02T19:30">Oct 2</time>
      <div class="e-content"><p>Hello <b>world</b> &amp; <a href="/more">more</a></p><template><p>hidden</p></template></div>
      <a class="u-url" href="talk">Link</a></div>`;
    expect(read(html, 'microformats')).toEqual([
      {
        name: 'Talk',
        start: '2026-10-02T19:30',
        startAt: '2026-10-02T19:30',
        url: 'https://venue.example/shows/talk',
        description: 'Hello world & more',
      },
    ]);
  });

  it('reads an h-event with an h-card location, times written with a space or a short offset', () => {
    const html = `<div class="h-event">
      <h1 class="p-name">IndieWebCamp Berlin</h1>
      <time class="dt-start" datetime="2026-06-06 10:00">6 June</time> to <time class="dt-end" datetime="2026-06-07T17:00+0200">7 June</time>
      <a class="u-url" href="/2026/berlin">details</a>
      <p class="p-summary">Two days of building the independent web.</p>
      <div class="p-location h-card"><span class="p-name">Mozilla Berlin</span>, <span class="p-street-address">Voltastr. 5</span>,
        <span class="p-locality">Berlin</span>, <span class="p-country-name">Germany</span></div>
    </div>`;
    expect(read(html, 'microformats', 'https://indieweb.example/events')).toEqual([
      {
        name: 'IndieWebCamp Berlin',
        start: '2026-06-06 10:00',
        end: '2026-06-07T17:00+0200',
        place: 'Mozilla Berlin, Voltastr. 5, Berlin, Germany',
        venue: 'Mozilla Berlin',
        address: 'Voltastr. 5, Berlin, Germany',
        city: 'Berlin',
        country: 'Germany',
        url: 'https://indieweb.example/2026/berlin',
        description: 'Two days of building the independent web.',
        startAt: '2026-06-06T10:00',
        endAt: '2026-06-07T17:00+02:00',
      },
    ]);
  });

  it('reads hCalendar (microformats1) through the backcompat mapping, with a duration', () => {
    const html = `<div class="vcalendar"><div class="vevent">
      <a class="url summary" href="https://conf.example/xtech">XTech 2026</a>:
      <abbr class="dtstart" title="2026-05-16">May 16</abbr>, for <abbr class="duration" title="P3D">three days</abbr>
      at <span class="location">Paris, France</span></div></div>`;
    expect(read(html, 'microformats')).toEqual([
      {
        name: 'XTech 2026',
        start: '2026-05-16',
        end: '2026-05-18',
        place: 'Paris, France',
        venue: 'Paris, France',
        url: 'https://conf.example/xtech',
        startAt: '2026-05-16',
        endAt: '2026-05-18',
      },
    ]);
  });

  it('reads no event from a résumé’s jobs and schools (hResume vevents, h-resume p-experience h-events)', () => {
    // any23's saved LinkedIn profile (steveganz.html): <li class="experience vevent vcard"> inside <div class="hresume">.
    const html = `<div class="hresume"><ul class="vcalendar">
      <li class="experience vevent vcard"><h4 class="org summary">PayPal</h4>
        <abbr class="dtstart" title="2005-09-01">September 2005</abbr></li>
      <li class="education vevent vcard"><h3 class="summary fn org">Leland High School</h3>
        <abbr class="dtstart" title="1983-01-01">1983</abbr></li></ul></div>
      <div class="h-resume"><div><div class="p-experience h-event"><span class="p-name">Web developer</span>
        <time class="dt-start">2010-01-01</time></div></div></div>
      <div class="vevent"><span class="summary">Careers fair</span><abbr class="dtstart" title="2026-05-16">May 16</abbr></div>
      <div class="education vevent"><span class="summary">Education evening</span><abbr class="dtstart" title="2026-05-17">May 17</abbr></div>`;
    // Outside a résumé, an event is one whatever its other classes say.
    expect(read(html, 'microformats').map((e) => e.name)).toEqual(['Careers fair', 'Education evening']);
  });

  it('reads the other h-events when the parser throws on one (a link that is no URL), and counts that one', () => {
    const html = `<div class="h-event"><span class="p-name">Jazz</span><time class="dt-start">2026-10-02 19:30</time></div>
      <div class="h-event"><a class="p-name u-url" href="//[">Broken</a><time class="dt-start">2026-10-03 19:30</time></div>
      <div class="h-event"><span class="p-name">Blues</span><time class="dt-start">2026-10-04 19:30</time></div>`;
    const page = readHtml(html, 'https://venue.example/', 1000);
    const sink = new FactSink();
    eventsFromMicroformats(page, { baseUrl: page.baseUrl, sink });
    expect(sink.events.map((e) => e.name)).toEqual(['Jazz', 'Blues']);
    expect(sink.unreadable).toBe(1);
  });

  it('reads a value-class start as its first date, first time and first offset; 12am as midnight', () => {
    // mf2py's test/examples/datetimes.html: microformats-parser joined every value part (two dates, two times,
    // two offsets: no date at all for us) and read 12:30am as 12:30 (patches/microformats-parser+2.0.6.patch).
    const html = `<div class="h-event"><h1 class="p-name">Multiple</h1><p><span class="dt-start">
        <span class="value">2014-06-01</span> <span class="value">3014-06-01</span> <span class="value">12:30</span>
        (UTC<span class="value">-06:00</span>) <span class="value">23:00</span> (UTC<span class="value">+01:00</span>)</span></p></div>
      <div class="h-event"><h1 class="p-name">Midnight</h1><span class="dt-start"><span class="value">2014-06-01</span>
        <span class="value">12:30am</span> (UTC<span class="value">-6:00</span>)</span></div>
      <div class="h-event"><h1 class="p-name">Noon</h1><span class="dt-start"><span class="value">12pm</span>
        on <span class="value">2014-06-01</span></span></div>`;
    expect(read(html, 'microformats').map((f) => [f.name, f.startAt])).toEqual([
      ['Multiple', '2014-06-01T12:30-06:00'],
      ['Midnight', '2014-06-01T00:30-06:00'],
      ['Noon', '2014-06-01T12:00'],
    ]);
  });

  it('parses no more roots than the bound has room for, and counts the rest', () => {
    const html = Array.from({ length: 120 }, (_, i) => `<div class="h-event"><span class="p-name">Show ${i}</span></div>`).join('');
    const page = readHtml(html, 'https://venue.example/', 1000);
    const sink = new FactSink(100);
    eventsFromMicroformats(page, { baseUrl: page.baseUrl, sink });
    expect(sink.events).toHaveLength(100);
    expect(sink.events[99]?.name).toBe('Show 99');
    expect(sink.dropped).toBe(20);
  });
});
