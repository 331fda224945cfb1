import { describe, expect, it } from 'vitest';
import { deliveredEvent } from '../../dev/harness/found-event';
import type { Event } from '../contract/event';
import { digestWindow } from './digest-window';

const event = (title: string, over: Partial<Event>): Event => deliveredEvent({ title, ...over });

describe('digestWindow', () => {
  const now = new Date('2026-11-25T12:00:00Z');

  it('leaves out events that ended more than 30 days ago and counts them; keeps recently changed, upcoming and dateless ones', () => {
    const events = [
      event('Last year', { starts_at: '2025-11-20T19:00:00+01:00' }),
      event('31 days ago', { starts_at: '2026-10-25T11:00:00+00:00' }),
      event('Long fair, ended 29 days ago', { starts_at: '2026-09-01', ends_at: '2026-10-27', all_day: true, new: false }),
      event('Last week', { starts_at: '2026-11-18T19:00:00+01:00', new: false }),
      event('Next month', { starts_at: '2026-12-18', all_day: true }),
      event('Date not known', {}),
    ];
    const { kept, dropped } = digestWindow(events, now);
    expect(kept.map((e) => e.title)).toEqual(['Long fair, ended 29 days ago', 'Last week', 'Next month', 'Date not known']);
    expect(dropped).toBe(2);
  });

  it('keeps a changed event of the last 30 days (a cancelled talk of last week), and no new one already over', () => {
    const events = [
      event('Cancelled last week', { starts_at: '2026-11-18T19:00:00+01:00', new: false, status: 'cancelled' }),
      event('New, but it was yesterday', { starts_at: '2026-11-24T19:00:00+01:00' }),
      event('New, all day today', { starts_at: '2026-11-25', all_day: true }),
      event('New, ends tonight', { starts_at: '2026-11-25T09:00:00Z', ends_at: '2026-11-25T18:00:00Z' }),
    ];
    const { kept, dropped, past } = digestWindow(events, now);
    expect(kept.map((e) => e.title)).toEqual(['Cancelled last week', 'New, all day today', 'New, ends tonight']);
    expect([dropped, past]).toEqual([0, 1]);
  });
});
