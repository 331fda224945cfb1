import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractFacts } from './extract';
import { htmlToText } from './html-text';
import { eventsFromIcal } from './ical';
import { eventsFromJsonLd, jsonLdBlocks } from './json-ld';

// The stand-in's sample sites double as fixtures: shaped like a real events page (CMS JSON-LD in @graph,
// an array block, a broken block, cookie banner, nav) and a real Meetup-style iCalendar export.
const fixture = (name: string) => readFileSync(new URL(`../../dev/standins/sites/${name}`, import.meta.url), 'utf8');

describe('JSON-LD events', () => {
  const html = fixture('berlin-ai.html');

  it('finds Events and subtypes in @graph and arrays, skipping broken blocks and non-events', () => {
    expect(jsonLdBlocks(html)).toHaveLength(2);
    const events = eventsFromJsonLd(jsonLdBlocks(html));
    expect(events.map((e) => e.name)).toEqual([
      'Applied ML Summit Berlin 2026',
      'Berlin LLM Meetup #42: Retrieval that works',
      'Hands-on: Fine-tuning open models (online)',
    ]);
    expect(events[0]).toEqual({
      name: 'Applied ML Summit Berlin 2026',
      start: '2026-06-18T09:00:00+02:00',
      end: '2026-06-19T18:00:00+02:00',
      place: 'bcc Berlin Congress Center, Alexanderstraße 11, 10178, Berlin, DE',
      url: 'https://ai-events.example/events/applied-ml-summit',
      organizer: 'AI Events Berlin',
      offers: 'Early bird, 349.00 EUR, InStock, https://ai-events.example/tickets/summit',
      description: 'Two days of talks on shipping machine learning to production & MLOps.',
      startAt: '2026-06-18T09:00:00+02:00',
      endAt: '2026-06-19T18:00:00+02:00',
      venue: 'bcc Berlin Congress Center',
      city: 'Berlin',
      online: false,
    });
    expect(events[1]).toMatchObject({ place: 'Factory Berlin Görlitzer Park, Lohmühlenstraße 65, 12435 Berlin', offers: 'free' });
    expect(events[2]).toMatchObject({ place: 'Online https://ai-events.example/live/fine-tuning', end: '2026-06-03T19:00:00Z' });
    expect(events[2]?.online).toBe(true);
  });

  it('reads eventStatus as moved or cancelled', () => {
    const node = (status: string) => ({ '@type': 'Event', name: 'Talk', startDate: '2026-05-01', eventStatus: status });
    const statuses = eventsFromJsonLd([
      node('https://schema.org/EventCancelled'),
      node('EventRescheduled'),
      node('http://schema.org/EventPostponed'),
      node('https://schema.org/EventScheduled'),
    ]).map((e) => e.status);
    expect(statuses).toEqual(['cancelled', 'moved', 'moved', undefined]);
  });

  it('reads nested ItemList pages and sub-events', () => {
    const list = {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, item: { '@type': 'Festival', name: 'No event type' } },
        {
          '@type': 'ListItem',
          position: 2,
          item: {
            '@type': ['Event', 'Thing'],
            name: 'Data Festival',
            startDate: '2026-09-01',
            subEvent: [{ '@type': 'Event', name: 'Keynote' }],
          },
        },
      ],
    };
    expect(eventsFromJsonLd([list]).map((e) => e.name)).toEqual(['Data Festival', 'Keynote']);
  });
});

describe('readable text', () => {
  it('keeps the content and drops scripts, styles, navigation, cookie banners and footers', () => {
    const text = htmlToText(fixture('berlin-ai.html'));
    expect(text).toContain('AI conferences and meetups in Berlin');
    expect(text).toContain('Hand-picked events for engineers, researchers & founders.');
    expect(text).toContain('18–19 June 2026 · bcc Berlin Congress Center');
    for (const noise of ['gtag', 'dataLayer', 'Newsletter', 'cookies', 'Imprint', '.hero', '@graph']) expect(text).not.toContain(noise);
  });
});

describe('iCalendar events', () => {
  it('unfolds lines, unescapes text, keeps time zones and skips alarms', () => {
    const events = eventsFromIcal(fixture('meetups.ics'));
    expect(events).toHaveLength(3);
    expect(events[0]).toEqual({
      name: 'PyData Berlin: Forecasting, evaluation and LLM agents',
      start: '2026-06-09 18:30 (Europe/Berlin)',
      end: '2026-06-09 21:00 (Europe/Berlin)',
      place: 'Zalando SE, Valeska-Gert-Straße 5, 10243 Berlin',
      url: 'https://meetups.example/pydata-berlin/events/301/',
      organizer: 'PyData Berlin',
      description: 'Two talks and pizza. Doors open 18:30; talks start 19:00. Please RSVP on the meetup page.',
      startAt: '2026-06-09T18:30:00',
      endAt: '2026-06-09T21:00:00',
      timezone: 'Europe/Berlin',
      venue: 'Zalando SE, Valeska-Gert-Straße 5, 10243 Berlin',
    });
    expect(events[1]).toMatchObject({ start: '2026-06-16 17:00 UTC', place: 'Online' });
    expect(events[1]).toMatchObject({ startAt: '2026-06-16T17:00:00Z' });
    expect(events[1]?.timezone).toBeUndefined();
    expect(events[2]).toMatchObject({ name: 'Berlin AI Hackathon', start: '2026-07-01', end: '2026-07-03', startAt: '2026-07-01' });
  });

  it('marks cancelled events and ignores events without a summary', () => {
    const ics =
      'BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Old meetup\nSTATUS:CANCELLED\nDTSTART:20260101T100000Z\nEND:VEVENT\nBEGIN:VEVENT\nDTSTART:20260101\nEND:VEVENT\nEND:VCALENDAR\n';
    expect(eventsFromIcal(ics)).toEqual([
      { name: 'Old meetup (cancelled)', start: '2026-01-01 10:00 UTC', startAt: '2026-01-01T10:00:00Z', status: 'cancelled' },
    ]);
  });
});

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
  });
});
