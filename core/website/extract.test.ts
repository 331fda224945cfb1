import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractFacts } from './extract';
import { FactSink } from './fact-sink';

// The stand-in's sample sites double as fixtures: shaped like a real events page (CMS JSON-LD in @graph,
// an array block, a broken block, cookie banner, nav) and a real Meetup-style iCalendar export.
const fixture = (name: string) => readFileSync(new URL(`../../dev/standins/sites/${name}`, import.meta.url), 'utf8');

describe('extractFacts', () => {
  it('chooses the reader by content type', () => {
    const ics = extractFacts({ url: 'https://m.example/cal.ics', contentType: 'text/calendar', body: fixture('meetups.ics') });
    expect(ics.events).toHaveLength(3);
    const json = extractFacts({
      url: 'https://api.example/events',
      contentType: 'application/json',
      body: JSON.stringify({ items: [{ '@type': 'Event', name: 'API event', startDate: '2026-02-02' }] }),
    });
    expect(json.events).toEqual([{ name: 'API event', start: '2026-02-02', startAt: '2026-02-02' }]);
    const html = extractFacts({ url: 'https://ai-events.example/berlin', contentType: 'text/html', body: fixture('berlin-ai.html') });
    expect(html.title).toBe('AI Events Berlin – Conferences & Meetups');
    expect(html.events).toHaveLength(3);
    expect(html.droppedEvents).toBeUndefined();
  });

  it('says how many events it found but could not read', () => {
    const body = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:a@x',
      'SUMMARY:Weekly jam',
      'DTSTART:20260603T180000Z',
      'RRULE:FREQ=WEEKLY;COUNT=ag',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:b@x',
      'SUMMARY:Quiz',
      'DTSTART:20260604T180000Z',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const facts = extractFacts({ url: 'https://m.example/cal.ics', contentType: 'text/calendar', body });
    expect(facts.events.map((e) => e.name)).toEqual(['Quiz']);
    expect(facts.unreadableEvents).toBe(1);
    expect(facts.droppedEvents).toBeUndefined();
  });

  it('reads every format on one page, once each', () => {
    const body = `<!doctype html><html><head><title>Club</title>
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"MusicEvent","name":"From JSON-LD","startDate":"2026-05-28T19:00"}</script>
      </head><body>
      <div itemscope itemtype="https://schema.org/Event"><span itemprop="name">From microdata</span><meta itemprop="startDate" content="2026-06-01"></div>
      <div vocab="https://schema.org/" typeof="Event"><span property="name">From RDFa</span><span property="startDate" content="2026-06-02">2 June</span></div>
      <div class="h-event"><span class="p-name">From h-event</span><time class="dt-start" datetime="2026-06-03">3 June</time></div>
      <div class="vevent"><span class="summary">From hCalendar</span><abbr class="dtstart" title="2026-06-04">4 June</abbr></div>
      <div itemscope itemtype="http://data-vocabulary.org/Event"><span itemprop="summary">From data-vocabulary</span><time itemprop="startDate" datetime="2026-06-05">5 June</time></div>
      </body></html>`;
    const facts = extractFacts({ url: 'https://club.example/', contentType: 'text/html', body });
    expect(facts.events.map((e) => [e.name, e.startAt])).toEqual([
      ['From JSON-LD', '2026-05-28T19:00'],
      ['From microdata', '2026-06-01'],
      ['From data-vocabulary', '2026-06-05'],
      ['From RDFa', '2026-06-02'],
      ['From h-event', '2026-06-03'],
      ['From hCalendar', '2026-06-04'],
    ]);
  });

  it('keeps no more than the bound and says how many it left out, instead of a silent cut', () => {
    const vevents = Array.from(
      { length: 152 },
      (_, i) =>
        `BEGIN:VEVENT\r\nUID:h${i}\r\nSUMMARY:Holiday ${i}\r\nDTSTART;VALUE=DATE:2026${String((i % 12) + 1).padStart(2, '0')}01\r\nEND:VEVENT\r\n`,
    ).join('');
    const body = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${vevents}END:VCALENDAR\r\n`;
    // The default bound keeps all 152 (the old reader kept 50 without a word).
    expect(extractFacts({ url: 'https://h.example/h.ics', contentType: 'text/calendar', body }).events).toHaveLength(152);
    const bounded = extractFacts({ url: 'https://h.example/h.ics', contentType: 'text/calendar', body }, new FactSink(100));
    expect(bounded.events).toHaveLength(100);
    expect(bounded.droppedEvents).toBe(52);
  });

  it('names the calendars the page links, resolved against <base href>, webcal as https', () => {
    const body = `<html><head><base href="https://club.example/en/">
      <link rel="alternate" type="text/calendar" href="/feed.ics" title="Calendar"></head><body>
      <a href="webcal://club.example/all.ics">Subscribe</a><a href="events/2026.ics?lang=en">2026</a>
      <a href="/feed.ics">again</a><a href="/about">About</a><a href="javascript:alert(1).ics">x</a></body></html>`;
    const facts = extractFacts({ url: 'https://club.example/page', contentType: 'text/html', body });
    expect(facts.calendarLinks).toEqual([
      'https://club.example/feed.ics',
      'https://club.example/all.ics',
      'https://club.example/en/events/2026.ics?lang=en',
    ]);
  });
});
