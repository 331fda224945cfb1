import { describe, expect, it } from 'vitest';
import { foundEvent } from '../../dev/harness/found-event';
import type { FoundEvent } from '../contract/event';
import { matchOnPage, pageAgrees, titleTier, titlesMatch } from './match-event';

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
    expect(matchOnPage(model, page)?.event.starts_at).toBe('2027-03-02T19:00:00+01:00');
    expect(matchOnPage(event('ML Meetup', '2027-03-10T20:00:00+01:00'), page)).toBeNull();
    expect(matchOnPage(event('Opera Gala', '2027-03-03T20:00:00+01:00'), page)).toBeNull();
    expect(matchOnPage(event('ML Meetup', null), page)).toBeNull();
  });

  it('never matches on a single common word, nor on a page title much shorter or only generic', () => {
    // A hostile calendar: "Berlin" every hour, "Night" every half hour, and a page whose only event is "AI".
    expect(titlesMatch('Quantum Summit Berlin', 'Berlin')).toBe(false);
    expect(titlesMatch('Berlin Jazz Night', 'Night')).toBe(false);
    expect(titlesMatch('Berlin Night', 'Berlin')).toBe(false);
    expect(titlesMatch('AI Summit Berlin', 'AI')).toBe(false);
    expect(titlesMatch('Summer Night Party', 'Night Party')).toBe(false);
    expect(titlesMatch('Parkrun North', 'Parkrun')).toBe(false);
    expect(titlesMatch('Parkrun', 'Parkrun North')).toBe(false);
    // What still names the model's event: its whole title inside the page's, one rare word on both sides.
    expect(titlesMatch('ML Meetup', 'Berlin ML Meetup: Transformers for Time Series')).toBe(true);
    expect(titlesMatch('Lollapalooza', 'Lollapalooza 2027')).toBe(true);
    expect(titleTier('AI Summit Berlin', 'AI Summit Berlin')).toBe(0);
    expect(titleTier('AI Summit Berlin', 'AI SUMMIT – Berlin')).toBe(1);
    expect(titleTier('AI Summit Berlin', 'The AI Summit Berlin: Day 1')).toBe(2);
  });

  it('confirms nothing on a hostile calendar of generic titles, and corrects nothing to a one-word event', () => {
    const calendar: FoundEvent[] = [];
    for (let h = 0; h < 24; h++) {
      const at = `2027-03-02T${String(h).padStart(2, '0')}:00:00+01:00`;
      calendar.push(event('Berlin', at), event('Night', at), event('Night', at.replace(':00:00', ':30:00')));
    }
    for (const invented of ['Quantum Summit Berlin', 'Blockchain Summit Berlin', 'Berlin Techno Night']) {
      expect(matchOnPage(event(invented, '2027-03-02T19:00:00+01:00'), calendar), invented).toBeNull();
    }
    expect(matchOnPage(event('AI Summit Berlin', '2027-03-03'), [event('AI', '2027-03-02')])).toBeNull();
  });

  it('confirms a right date when any event of the page agrees, and corrects to the closest title first', () => {
    // A match, and under a shorter near-identical title its TV broadcast half an hour earlier.
    const page = [
      event('Bayern vs Real Madrid', '2027-03-02T20:15:00+01:00'),
      event('UEFA Champions League: FC Bayern Munich – Real Madrid', '2027-03-02T20:45:00+01:00'),
    ];
    const right = matchOnPage(event('Bayern Munich vs Real Madrid', '2027-03-02T20:45:00+01:00'), page);
    expect(right?.event).toBe(page[1]);
    expect(right?.agrees).toBe(true);
    // A calendar with "Harbour Run" and "Harbour Run North": the answer's "Harbour Run North" is that one.
    const runs = [event('Harbour Run', '2027-03-06T09:00:00+01:00'), event('Harbour Run North', '2027-03-06T10:30:00+01:00')];
    expect(matchOnPage(event('Harbour Run North', '2027-03-06T10:30:00+01:00'), runs)?.event).toBe(runs[1]);
    // A wrong time is corrected to the exact title's event, even when a near title's start is closer.
    const wrong = matchOnPage(event('Harbour Run North', '2027-03-06T09:15:00+01:00'), runs);
    expect(wrong?.event).toBe(runs[1]);
    expect(wrong?.agrees).toBe(false);
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
