import { describe, expect, it } from 'vitest';
import { foundEvent } from '../../dev/harness/found-event';
import type { FoundEvent } from '../contract/event';
import { matchOnPage, pageAgrees, titlesMatch } from './match-event';

const event = (title: string, starts_at: string | null, more: Partial<FoundEvent> = {}): FoundEvent =>
  foundEvent({ title, starts_at, all_day: starts_at !== null && starts_at.length === 10, city: 'Berlin', ...more });

describe('matching a model event to a page event', () => {
  it('takes the same or a close title, never titles with little in common', () => {
    expect(titlesMatch('AI Summit Berlin', 'AI Summit Berlin 2027')).toBe(true);
    expect(titlesMatch('AI Summit Berlin', 'The AI Summit Berlin: Day 1')).toBe(true);
    expect(titlesMatch('Berlin Machine Learning Meetup', 'Berlin Machine-Learning Meetup #12')).toBe(true);
    expect(titlesMatch('Berlin AI Film Night', 'Berlin Machine Learning Meetup')).toBe(false);
    expect(titlesMatch('Jazz Night', 'Techno Night')).toBe(false);
  });

  it('needs a start within three days on both sides, the closest winning; never by date alone', () => {
    const model = event('ML Meetup', '2027-03-03T20:00:00+01:00');
    const page = [
      event('ML Meetup', '2027-03-02T19:00:00+01:00'),
      event('ML Meetup', '2027-03-16T19:00:00+01:00'),
      event('Film Night', '2027-03-03T20:00:00+01:00'),
    ];
    expect(matchOnPage(model, page)?.starts_at).toBe('2027-03-02T19:00:00+01:00');
    expect(matchOnPage(event('ML Meetup', '2027-03-10T20:00:00+01:00'), page)).toBeNull();
    expect(matchOnPage(event('Opera Gala', '2027-03-03T20:00:00+01:00'), page)).toBeNull();
    expect(matchOnPage(event('ML Meetup', null), page)).toBeNull();
  });

  it('agrees only when the start is the same instant (or the same day for a whole day) and any end too', () => {
    const page = event('X', '2027-03-02T19:00:00+01:00', { ends_at: '2027-03-02T21:00:00+01:00' });
    expect(pageAgrees(event('X', '2027-03-02T18:00:00Z'), page)).toBe(true);
    expect(pageAgrees(event('X', '2027-03-03T21:00:00+01:00'), page)).toBe(false);
    expect(pageAgrees(event('X', '2027-03-02T19:00:00+01:00', { ends_at: '2027-03-02T22:00:00+01:00' }), page)).toBe(false);
    expect(pageAgrees(event('X', '2027-03-02'), page)).toBe(false);
    expect(pageAgrees(event('X', '2027-03-02'), event('X', '2027-03-02'))).toBe(true);
  });
});
