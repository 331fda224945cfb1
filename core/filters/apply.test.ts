import { describe, expect, it } from 'vitest';
import { foundEvent } from '../../dev/harness/found-event';
import type { FoundEvent } from '../contract/event';
import { applyFilters, hiddenReason } from './apply';
import { resolveFilters } from './resolve';

const event = (over: Partial<FoundEvent>): FoundEvent =>
  foundEvent({
    key: over.title ?? 'e',
    title: 'Event',
    starts_at: '2026-12-03T18:30:00+01:00',
    timezone: 'Europe/Berlin',
    online: false,
    ...over,
  });

const potsdam = event({ title: 'Potsdam AI Meetup', city: 'Potsdam' });
const munich = event({ title: 'Munich ML Night', city: 'München' });
const online = event({ title: 'Online LLM Office Hours', online: true });
const berlinCrypto = event({ title: 'Berlin Crypto Evening', city: 'Berlin', venue: 'Factory' });
const nowhere = event({ title: 'Somewhere Meetup', venue: 'The back room' });
const ctx = { timezone: 'Europe/Berlin', now: new Date('2026-11-25T12:00:00Z') };

const filters = (body: unknown) => {
  const r = resolveFilters(body);
  if (!r.ok) throw new Error(r.message);
  return r.filters;
};
const titles = (events: FoundEvent[]) => events.map((e) => e.title);

describe('applyFilters', () => {
  it('20 km around Berlin, in person: keeps Potsdam, drops Munich, the online one and the unplaceable one', () => {
    const f = filters({ place: { name: 'Berlin', radius_km: 20 }, attendance: 'in_person' });
    expect(titles(applyFilters([potsdam, munich, online, berlinCrypto, nowhere], f, ctx))).toEqual([
      'Potsdam AI Meetup',
      'Berlin Crypto Evening',
    ]);
  });

  it('a place with attendance both keeps online events (they are anywhere); online keeps only those', () => {
    const around = filters({ place: { name: 'Berlin', radius_km: 20 } });
    expect(titles(applyFilters([potsdam, munich, online], around, ctx))).toEqual(['Potsdam AI Meetup', 'Online LLM Office Hours']);
    expect(titles(applyFilters([potsdam, online], filters({ attendance: 'online' }), ctx))).toEqual(['Online LLM Office Hours']);
  });

  it('5 km around Berlin no longer reaches Potsdam; 600 km reaches Munich', () => {
    expect(titles(applyFilters([potsdam, berlinCrypto], filters({ place: { name: 'Berlin', radius_km: 5 } }), ctx))).toEqual([
      'Berlin Crypto Evening',
    ]);
    expect(titles(applyFilters([munich], filters({ place: { name: 'Berlin', radius_km: 600 } }), ctx))).toEqual(['Munich ML Night']);
  });

  it('excluded words drop by whole word in title or venue, in any case', () => {
    const f = filters({ exclude: ['crypto', 'factory'] });
    const cryptography = event({ title: 'Cryptography Basics', city: 'Berlin' });
    expect(titles(applyFilters([berlinCrypto, cryptography], f, ctx))).toEqual(['Cryptography Basics']);
  });

  it('next N days counts from today in the timer’s zone; between dates includes both ends; undated events go', () => {
    const soon = event({ title: 'Soon', starts_at: '2026-12-01T18:00:00+01:00' });
    const later = event({ title: 'Later', starts_at: '2026-12-20', all_day: true });
    const undated = event({ title: 'Undated', starts_at: null });
    const running = event({ title: 'Running', starts_at: '2026-11-20', ends_at: '2026-11-27', all_day: true });
    expect(titles(applyFilters([soon, later, undated, running], filters({ window: { next_days: 7 } }), ctx))).toEqual(['Soon', 'Running']);
    expect(titles(applyFilters([soon, later], filters({ window: { from: '2026-12-20', to: '2026-12-20' } }), ctx))).toEqual(['Later']);
  });
});

describe('hiddenReason', () => {
  it('names the filter that left each event out, in applyFilters order, and null for a kept one', () => {
    const why = hiddenReason(
      filters({ place: { name: 'Berlin', radius_km: 50 }, attendance: 'in_person', exclude: ['crypto'], window: { next_days: 14 } }),
      ctx,
    );
    expect(why(potsdam)).toBeNull();
    expect(why(online)).toBe('online, and you asked for in person');
    expect(why(munich)).toBe('not within 50 km of Berlin');
    expect(why(berlinCrypto)).toBe('names “crypto”, which you left out');
    expect(why(event({ title: 'Potsdam Winter Meetup', city: 'Potsdam', starts_at: '2027-02-01T18:00:00+01:00' }))).toBe(
      'not in the next 14 days',
    );
    expect(why(event({ title: 'Potsdam Someday', city: 'Potsdam', starts_at: null }))).toBe(
      'no date given, and you asked for the next 14 days',
    );
    const between = hiddenReason(filters({ window: { from: '2026-12-10', to: '2026-12-20' } }), ctx);
    expect(between(potsdam)).toBe('not in Thu 10 Dec 2026 to Sun 20 Dec 2026');
    expect(hiddenReason(filters({ attendance: 'online' }), ctx)(potsdam)).toBe('in person, and you asked for online');
  });
});

describe('resolveFilters', () => {
  it('resolves the place offline, German names too, and refuses an unknown one with a sentence', () => {
    expect(filters({ place: { name: 'München', radius_km: 10 } })?.place).toMatchObject({ lat: expect.closeTo(48.13, 1), country: 'DE' });
    expect(resolveFilters({ place: { name: 'Atlantis', radius_km: 10 } })).toEqual({
      ok: false,
      message: 'We do not know the place "Atlantis". Write the name of a city, e.g. "Berlin" or "München", or leave the place empty.',
    });
  });

  it('refuses what cannot be meant and stores filters that keep everything as none', () => {
    // The days in the one date style (docs/decisions/time.md).
    expect(resolveFilters({ window: { from: '2026-12-10', to: '2026-12-01' } })).toEqual({
      ok: false,
      message: 'The date window ends on Tue 1 Dec 2026, before it starts on Thu 10 Dec 2026; swap the dates.',
    });
    expect(resolveFilters({ window: { from: '2026-01-01', to: '2027-01-05' } })).toEqual({
      ok: false,
      message: 'The date window spans 370 days (Thu 1 Jan 2026 – Tue 5 Jan 2027); it can span at most 366 days. Choose closer dates.',
    });
    expect(resolveFilters({ place: { name: 'Berlin', radius_km: 0 } })).toEqual({
      ok: false,
      message: 'The radius must be at least 1 km.',
    });
    expect(resolveFilters({ attendance: 'sometimes' })).toEqual({ ok: false, message: 'attendance must be both, in_person or online.' });
    expect(resolveFilters({ attendance: 'both', exclude: [] })).toEqual({ ok: true, filters: null });
  });
});
