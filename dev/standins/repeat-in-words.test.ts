import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../core/website/extract';
import { buildPrompt } from '../../core/search/prompt';
import { meetupInWords, repeatInWordsPage } from './repeat-in-words';

describe('the sample meetup that says its repeat in words', () => {
  // Friday 27 November 2026 in Berlin: the first Tuesday at least a week ahead is 8 December.
  const now = new Date('2026-11-27T12:00:00Z');
  const page = repeatInWordsPage(now);
  const url = 'http://127.0.0.1:8090/sites/rust-meetup.html';
  const facts = extractFacts({ url, contentType: 'text/html', body: page });

  it('carries no structured event, only the sentence', () => {
    expect(facts.events).toEqual([]);
    expect(facts.text).toContain(
      'Rust Meetup Berlin: Tuesday, 8 December 2026, 19:00 to 21:00, c-base, Berlin, then every second Tuesday.',
    );
  });

  it('is read from the prompt as the stand-in model reads it: the date, and the repeat in the closed form', () => {
    const read = meetupInWords(buildPrompt({ question: 'Rust meetups', timezone: 'Europe/Berlin', now, website: facts }));
    expect(read?.when).toBe('Tuesday, 8 December 2026, 19:00 to 21:00, and then every second Tuesday');
    expect(read?.event).toMatchObject({
      title: 'Rust Meetup Berlin',
      starts_at: '2026-12-08T19:00:00+01:00',
      ends_at: '2026-12-08T21:00:00+01:00',
      venue: 'c-base',
      city: 'Berlin',
      repeat: { frequency: 'weekly', interval: 2, weekday: 'tuesday', week_of_month: null, until: null },
    });
    // Any other page's text states no such meetup.
    expect(
      meetupInWords(buildPrompt({ question: 'x', timezone: 'Europe/Berlin', now, website: { ...facts, text: 'No events.' } })),
    ).toBeNull();
  });

  it('reads "of the month" as a monthly rule on that week of the month', () => {
    const text = 'Rust Meetup Berlin: Tuesday, 8 December 2026, 19:00 to 21:00, c-base, Berlin, then every second Tuesday of the month.';
    const read = meetupInWords(buildPrompt({ question: 'Rust meetups', timezone: 'Europe/Berlin', now, website: { ...facts, text } }));
    expect(read?.when).toBe('Tuesday, 8 December 2026, 19:00 to 21:00, and then every second Tuesday of the month');
    expect(read?.event.repeat).toEqual({ frequency: 'monthly', interval: 1, weekday: 'tuesday', week_of_month: 2, until: null });
  });
});
