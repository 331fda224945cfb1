import { describe, expect, it } from 'vitest';
import type { FoundEvent } from '../contract/event';
import type { WebsiteFacts } from '../website/extract';
import { answerNamesOnlyWebsiteEvents } from './answer-coverage';

const website: WebsiteFacts = {
  url: 'https://m.example/calendar',
  title: 'Meetups',
  events: [
    { name: 'PyData Berlin', url: 'https://m.example/pydata', place: 'Online https://live.m.example/pydata' },
    { name: 'Rust Night', url: 'https://m.example/rust', offers: 'https://tickets.example/rust?utm_source=x' },
  ],
  text: '',
};
const event = (title: string, url: string): FoundEvent =>
  ({
    key: title,
    title,
    starts_at: '2026-12-01T19:00:00+01:00',
    ends_at: null,
    all_day: false,
    timezone: 'Europe/Berlin',
    timezone_source: 'source',
    venue: null,
    city: 'Berlin',
    online: null,
    url,
    source_url: website.url,
    status: 'scheduled',
  }) as FoundEvent;
const exact = [event('PyData Berlin', 'https://m.example/pydata'), event('Rust Night', 'https://m.example/rust')];

describe("an answer that names only the website's events", () => {
  it('is one whose links are all the website and what its events carry, and that names an event', () => {
    const answer =
      'On https://m.example/calendar I found:\nPyData Berlin, 1 December (https://www.m.example/pydata/).\n' +
      'Watch online: https://live.m.example/pydata\nRust Night, tickets https://tickets.example/rust.';
    expect(answerNamesOnlyWebsiteEvents(answer, website, exact)).toBe(true);
  });

  it('is not one with a link the website does not carry, or with no event of the website named', () => {
    expect(answerNamesOnlyWebsiteEvents('PyData Berlin, and Go Night at https://go.example/night', website, exact)).toBe(false);
    expect(answerNamesOnlyWebsiteEvents('The page lists no events for December.', website, exact)).toBe(false);
    // A title inside a longer name is not that event.
    expect(answerNamesOnlyWebsiteEvents('Rust Nightly Build Party', website, exact)).toBe(false);
  });

  it('is never one when the website gave no events: the answer can only come from its text', () => {
    expect(answerNamesOnlyWebsiteEvents('PyData Berlin', { ...website, events: [] }, [])).toBe(false);
  });
});
