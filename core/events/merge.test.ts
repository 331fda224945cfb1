import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractFacts } from '../website/extract';
import { eventsFromFacts } from './from-facts';
import { mergeEvents } from './merge';
import { eventsFromExtraction, parseExtraction } from './model-extraction';

const fixture = (name: string) => readFileSync(new URL(`../../dev/standins/sites/${name}`, import.meta.url), 'utf8');
const page = 'https://ai-events.example/berlin';
const website = extractFacts({ url: page, contentType: 'text/html', body: fixture('berlin-ai.html') });

// Recorded from a structured-output reply for the same page: a UTC time, a tracking link, a shorter title.
const modelReply = JSON.stringify({
  events: [
    {
      title: 'Applied ML Summit Berlin',
      starts_at: '2026-06-18T07:00:00Z',
      ends_at: null,
      all_day: false,
      timezone: null,
      venue: 'bcc',
      city: 'Berlin',
      online: false,
      url: 'https://ai-events.example/events/applied-ml-summit/?utm_source=gemini',
      status: 'scheduled',
      verification: null,
    },
    {
      title: 'Berlin LLM Meetup #42: Retrieval that works',
      starts_at: '2026-05-28T19:00:00+02:00',
      ends_at: null,
      all_day: false,
      timezone: 'Europe/Berlin',
      venue: null,
      city: 'berlin',
      online: null,
      url: null,
      status: 'scheduled',
      verification: null,
    },
    {
      title: 'A meetup the page text mentions only',
      starts_at: '2026-06-25',
      ends_at: null,
      all_day: true,
      timezone: null,
      venue: null,
      city: 'Berlin',
      online: null,
      url: null,
      status: 'scheduled',
      verification: null,
    },
  ],
});

describe('website events', () => {
  it('maps JSON-LD facts exactly', () => {
    const events = eventsFromFacts(website, { searcherTimezone: 'UTC', now: new Date() });
    expect(events[0]).toEqual({
      key: 'url:https://ai-events.example/events/applied-ml-summit',
      title: 'Applied ML Summit Berlin 2026',
      starts_at: '2026-06-18T09:00:00+02:00',
      ends_at: '2026-06-19T18:00:00+02:00',
      all_day: false,
      // No zone in the JSON-LD: its venue's city says Berlin.
      timezone: 'Europe/Berlin',
      timezone_source: 'venue',
      venue: 'bcc Berlin Congress Center',
      city: 'Berlin',
      online: false,
      url: 'https://ai-events.example/events/applied-ml-summit',
      source_url: page,
      status: 'scheduled',
      // Read from the page's own structured data: the source itself.
      verification: { status: 'source', source_url: page, model_starts_at: null, landing_url: null, reason: null },
    });
    expect(events[2]).toMatchObject({ online: true, venue: null });
  });

  it('maps iCalendar facts with their zone, all-day dates and cancellations', () => {
    const ics = extractFacts({ url: 'https://m.example/cal.ics', contentType: 'text/calendar', body: fixture('meetups.ics') });
    const events = eventsFromFacts(ics, { searcherTimezone: 'America/New_York', now: new Date() });
    expect(events[0]).toMatchObject({
      starts_at: '2026-06-09T18:30:00+02:00',
      ends_at: '2026-06-09T21:00:00+02:00',
      timezone: 'Europe/Berlin',
      timezone_source: 'source',
    });
    expect(events[2]).toMatchObject({ title: 'Berlin AI Hackathon', starts_at: '2026-07-01', ends_at: '2026-07-02', all_day: true });
    const cancelled = extractFacts({
      url: 'https://m.example/c.ics',
      contentType: 'text/calendar',
      body: 'BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Old meetup\nSTATUS:CANCELLED\nDTSTART:20260101T100000Z\nURL:https://m.example/e/1\nEND:VEVENT\nEND:VCALENDAR\n',
    });
    expect(eventsFromFacts(cancelled, { searcherTimezone: 'UTC', now: new Date() })[0]).toMatchObject({
      title: 'Old meetup',
      status: 'cancelled',
      key: 'url:https://m.example/e/1',
    });
  });
});

describe('merging', () => {
  it('the same event from JSON-LD and from the model is one event, with the website fields', () => {
    const fromModel = eventsFromExtraction(parseExtraction(modelReply), { userTimezone: 'Europe/Berlin', website: page, sources: [] });
    const merged = mergeEvents(eventsFromFacts(website, { searcherTimezone: 'Europe/Berlin', now: new Date() }), fromModel);
    expect(merged.map((e) => e.title)).toEqual([
      'Applied ML Summit Berlin 2026',
      'Berlin LLM Meetup #42: Retrieval that works',
      'Hands-on: Fine-tuning open models (online)',
      'A meetup the page text mentions only',
    ]);
    expect(merged[0]).toMatchObject({ venue: 'bcc Berlin Congress Center', starts_at: '2026-06-18T09:00:00+02:00' });
    // Matched by title and local date although the model gave no link; the link-less model event fills a gap.
    expect(merged[1]?.timezone).toBe('Europe/Berlin');
    expect(merged[3]).toMatchObject({ key: 'event:a meetup the page text mentions only|2026-06-25|berlin', all_day: true });
    expect(new Set(merged.map((e) => e.key)).size).toBe(merged.length);
  });

  it('a listing page link shared by several events is not their key', () => {
    const base = {
      ends_at: null,
      all_day: false,
      timezone: null,
      timezone_source: null,
      venue: null,
      city: null,
      online: null,
      source_url: page,
      status: 'scheduled' as const,
      verification: null,
    };
    const merged = mergeEvents([
      { ...base, key: '', title: 'Talk A', starts_at: '2026-05-01', url: 'https://x.example/events#a' },
      { ...base, key: '', title: 'Talk B', starts_at: '2026-05-02', url: 'https://x.example/events#b' },
    ]);
    expect(merged.map((e) => e.key)).toEqual(['event:talk a|2026-05-01|', 'event:talk b|2026-05-02|']);
  });

  it('a course starting the same day at two campuses is two events with two keys; copies at one venue stay one', () => {
    const base = {
      key: '',
      ends_at: null,
      all_day: true,
      timezone: null,
      timezone_source: null,
      city: null,
      online: null,
      url: null,
      source_url: page,
      status: 'scheduled' as const,
      verification: null,
    };
    const merged = mergeEvents([
      { ...base, title: 'HNC Accounting', starts_at: '2016-08-29', venue: 'Halbeath Campus Dunfermline' },
      { ...base, title: 'HNC Accounting', starts_at: '2016-08-29', venue: 'St Brycedale Campus Kirkcaldy' },
      // The same event again from another format of the page, its venue written longer.
      { ...base, title: 'HNC Accounting', starts_at: '2016-08-29', venue: 'Halbeath Campus Dunfermline, Fife' },
    ]);
    expect(merged.map((e) => e.key)).toEqual([
      'event:hnc accounting|2016-08-29|||halbeath campus dunfermline',
      'event:hnc accounting|2016-08-29|||st brycedale campus kirkcaldy',
    ]);
  });

  it('a matinee and an evening show of one title are two events with two keys; a show alone keeps its key', () => {
    const base = {
      key: '',
      ends_at: null,
      all_day: false,
      timezone: 'Europe/Berlin',
      timezone_source: 'source' as const,
      venue: 'Kino',
      city: 'Berlin',
      online: null,
      url: null,
      source_url: page,
      status: 'scheduled' as const,
      verification: null,
    };
    const merged = mergeEvents(
      [
        { ...base, title: 'Dune', starts_at: '2026-06-01T14:00:00+02:00' },
        { ...base, title: 'Dune', starts_at: '2026-06-01T20:00:00+02:00' },
        { ...base, title: 'Dune', starts_at: '2026-06-02T20:00:00+02:00' },
      ],
      // The model's copy names the day only: it is the first show, not a third event.
      [{ ...base, title: 'Dune', starts_at: '2026-06-01', all_day: true, venue: null, timezone: null, timezone_source: null }],
    );
    expect(merged.map((e) => e.key)).toEqual([
      'event:dune|2026-06-01|berlin|14:00',
      'event:dune|2026-06-01|berlin|20:00',
      'event:dune|2026-06-02|berlin',
    ]);
  });
});

describe('structured extraction replies', () => {
  it('skips malformed events and fields instead of failing', () => {
    const events = parseExtraction(
      '```json\n{"events":[{"title":""},{"title":"Ok","starts_at":42,"online":"yes","status":"unknown"},"junk"]}\n```',
    );
    expect(events).toEqual([
      {
        title: 'Ok',
        starts_at: null,
        ends_at: null,
        all_day: false,
        timezone: null,
        venue: null,
        city: null,
        online: null,
        url: null,
        status: 'scheduled',
        repeat: null,
      },
    ]);
  });

  it('throws on a reply that is not the agreed JSON', () => {
    expect(() => parseExtraction('Here are the events: ...')).toThrow(/not JSON/);
    expect(() => parseExtraction('{"items":[]}')).toThrow(/no "events" list/);
  });

  it('takes a grounding source as source_url when it is the event page or carries its title', () => {
    const [e] = eventsFromExtraction(parseExtraction(modelReply).slice(1, 2), {
      userTimezone: 'UTC',
      website: null,
      sources: [
        { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/1', title: 'Other', site: '' },
        {
          uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/2',
          title: 'Berlin LLM Meetup #42 Retrieval that works',
          site: '',
        },
      ],
    });
    expect(e?.source_url).toBe('https://vertexaisearch.cloud.google.com/grounding-api-redirect/2');
  });
});
