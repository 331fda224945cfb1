import { describe, expect, it } from 'vitest';
import { foundEvent } from '../../dev/harness/found-event';
import type { FoundEvent } from '../contract/event';
import { keptEvents } from './stored-events';

const NOW = new Date('2027-03-01T12:00:00Z');
const fromPage = (title: string, startsAt: string | null): FoundEvent =>
  foundEvent({ title, starts_at: startsAt, verification: { status: 'source', source_url: null, model_starts_at: null } });
const fromAnswer = (title: string, startsAt: string): FoundEvent =>
  foundEvent({ title, starts_at: startsAt, verification: { status: 'unconfirmed', source_url: null, model_starts_at: null } });
const titles = (events: FoundEvent[]) => events.map((e) => e.title);

describe('the events a search keeps', () => {
  it('keeps everything under the bound, as found', () => {
    const shown = [fromPage('B', '2027-04-01T10:00:00Z'), fromPage('A', '2027-03-02T10:00:00Z')];
    expect(keptEvents(shown, [], NOW, 2)).toEqual({ shown, hidden: [], leftOut: 0 });
  });

  it('past the bound: the answer’s own events, then the nearest upcoming, then the latest past; in the order found', () => {
    const shown = [
      fromPage('long ago', '2026-01-01T10:00:00Z'),
      fromPage('next year', '2028-03-01T10:00:00Z'),
      fromPage('yesterday', '2027-02-28T10:00:00Z'),
      fromPage('under way', '2027-03-01T11:00:00Z'),
      fromPage('no date', null),
      fromPage('tomorrow', '2027-03-02T10:00:00Z'),
      fromAnswer('the answer’s, far off', '2027-12-01T10:00:00Z'),
    ];
    const kept = keptEvents(shown, [], NOW, 4);
    expect(titles(kept.shown)).toEqual(['next year', 'under way', 'tomorrow', 'the answer’s, far off']);
    expect(titles(keptEvents(shown, [], NOW, 6).shown)).toEqual([
      'long ago',
      'next year',
      'yesterday',
      'under way',
      'tomorrow',
      'the answer’s, far off',
    ]);
    expect(kept.leftOut).toBe(3);
  });

  it('keeps the events the filters kept before those they hid', () => {
    const shown = [fromPage('a', '2027-06-01T10:00:00Z'), fromPage('b', '2027-06-02T10:00:00Z')];
    const hidden = [fromPage('hidden, sooner', '2027-03-02T10:00:00Z'), fromPage('hidden, later', '2027-03-03T10:00:00Z')];
    const kept = keptEvents(shown, hidden, NOW, 3);
    expect(titles(kept.shown)).toEqual(['a', 'b']);
    expect(titles(kept.hidden)).toEqual(['hidden, sooner']);
    expect(kept.leftOut).toBe(1);
  });
});
