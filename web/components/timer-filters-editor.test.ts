import { describe, expect, it } from 'vitest';
import { filtersSummary } from './timer-filters-editor';

describe("a timer's filters in a few words", () => {
  it('writes a window of days in the one date style (docs/decisions/time.md), and the rest as before', () => {
    const rest = { place: null, attendance: 'both' as const, exclude: [] };
    expect(filtersSummary({ ...rest, window: { from: '2026-12-20', to: '2027-01-05' } })).toBe('Sun 20 Dec 2026 – Tue 5 Jan 2027');
    expect(filtersSummary({ ...rest, window: { from: '2026-12-24', to: '2026-12-24' } })).toBe('Thu 24 Dec 2026');
    expect(filtersSummary({ ...rest, window: { next_days: 14 }, attendance: 'in_person', exclude: ['crypto'] })).toBe(
      'next 14 days · in person · not: crypto',
    );
    expect(filtersSummary(null)).toBe('all events');
  });
});
