import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { foundEvent } from '../../dev/harness/found-event';
import { extractFacts } from '../website/extract';
import { eventsFromFacts } from './from-facts';
import { titleKey } from './event-key';
import type { FoundEvent } from '../contract/event';
import { classifyEvents, type SeenEvent } from './only-new';

const now = new Date('2026-05-01T12:00:00Z');
const ev = (title: string, starts_at: string, extra: Partial<FoundEvent> = {}): FoundEvent => {
  const e = foundEvent({
    key: '',
    title,
    starts_at,
    venue: 'Hall',
    city: 'Berlin',
    online: false,
    source_url: 'https://site.example/',
    ...extra,
  });
  e.key = extra.key ?? titleKey(e);
  return e;
};
const seenOf = (...events: FoundEvent[]) => new Map<string, SeenEvent>(events.map((e) => [e.key, { key: e.key, event: e, sequence: 0 }]));

describe('only new per timer', () => {
  const a = ev('Meetup A', '2026-06-01T19:00:00+02:00');
  const b = ev('Meetup B', '2026-06-08T19:00:00+02:00', { key: 'url:https://site.example/b', url: 'https://site.example/b' });

  it('an unchanged run has nothing new or changed', () => {
    const result = classifyEvents([a, b], seenOf(a, b), now);
    expect(result.map((r) => [r.event.new, r.changed, r.remember.bumped])).toEqual([
      [false, false, false],
      [false, false, false],
    ]);
  });

  it('an added event is the one new event', () => {
    const c = ev('Meetup C', '2026-06-15T19:00:00+02:00');
    expect(classifyEvents([a, b, c], seenOf(a, b), now).map((r) => r.event.new)).toEqual([false, false, true]);
  });

  it('a changed start under the same link is moved, not new, and bumps the sequence', () => {
    const moved = { ...b, starts_at: '2026-06-09T19:00:00+02:00' };
    const [r] = classifyEvents([moved], seenOf(b), now);
    expect(r).toMatchObject({ changed: true, event: { new: false, status: 'moved' }, remember: { sequence: 1, bumped: true } });
    // The next run sees the same start: no longer a change, and the feed entry is not re-sent.
    const [again] = classifyEvents([moved], new Map([[b.key, { key: b.key, event: r!.remember.event, sequence: 1 }]]), now);
    expect(again).toMatchObject({ changed: false, event: { status: 'scheduled' }, remember: { sequence: 1, bumped: false } });
  });

  it('keeps the start a moved event had before, for every surface to show old → new', () => {
    const moved = { ...b, starts_at: '2026-06-09T19:00:00+02:00' };
    const [r] = classifyEvents([moved], seenOf(b), now);
    expect(r!.event.moved_from).toBe('2026-06-08T19:00:00+02:00');
    expect(r!.remember.event).toMatchObject({ status: 'moved', moved_from: '2026-06-08T19:00:00+02:00' });
    // Remembered with it: moved again, it is from the last date the timer saw, not the first.
    const seen = new Map([[b.key, { key: b.key, event: r!.remember.event, sequence: 1 }]]);
    const [still] = classifyEvents([moved], seen, now);
    expect(still!.remember.event.moved_from).toBe('2026-06-08T19:00:00+02:00');
    expect(still!.event.moved_from).toBeNull();
    const [again] = classifyEvents([{ ...b, starts_at: '2026-06-10T19:00:00+02:00' }], seen, now);
    expect(again!.event).toMatchObject({ status: 'moved', moved_from: '2026-06-09T19:00:00+02:00' });
    // A link-less event found under its new date's key keeps the old key and says the old date.
    const [byName] = classifyEvents([ev('Meetup A', '2026-06-03T19:00:00+02:00')], seenOf(a), now);
    expect(byName!.event).toMatchObject({ key: a.key, status: 'moved', moved_from: '2026-06-01T19:00:00+02:00' });
  });

  it('a link-less event on a new date keeps its old key when the old date is upcoming and gone', () => {
    const moved = ev('Meetup A', '2026-06-03T19:00:00+02:00');
    const [r] = classifyEvents([moved], seenOf(a), now);
    expect(r).toMatchObject({ changed: true, event: { key: a.key, new: false, status: 'moved' } });
    // A monthly meetup whose last edition is past is a new event.
    const past = ev('Meetup A', '2026-04-01T19:00:00+02:00');
    expect(classifyEvents([moved], seenOf(past), now)[0]!.event.new).toBe(true);
  });

  it('a cancellation is a change, and so is its reinstatement', () => {
    const cancelled = { ...b, status: 'cancelled' as const };
    const [r] = classifyEvents([cancelled], seenOf(b), now);
    expect(r).toMatchObject({ changed: true, event: { new: false, status: 'cancelled' }, remember: { bumped: true } });
    const [back] = classifyEvents([b], seenOf(cancelled), now);
    expect(back).toMatchObject({ changed: true, event: { status: 'scheduled' } });
  });
});

describe('only new per timer: dates a series excludes', () => {
  // node-ical's test calendar (test/fixtures/real-world/nodeical-daily-count-exdate-recurrence-id.ics): a daily
  // series of ten from 6 July 2015 at 12:00 Los Angeles time, 8 and 10 July excluded, 7 July moved to 9 July 15:00.
  const file = readFileSync(
    new URL('../../test/fixtures/real-world/nodeical-daily-count-exdate-recurrence-id.ics', import.meta.url),
    'utf8',
  );
  const runAt = new Date('2015-07-01T12:00:00Z');
  const read = (body: string) =>
    eventsFromFacts(extractFacts({ url: 'https://calendar.example/treasure.ics', contentType: 'text/calendar', body }), {
      searcherTimezone: 'Europe/Berlin',
      now: runAt,
    });

  it('an excluded date never announced is not new, and not remembered for feeds', () => {
    const found = read(file);
    const run = classifyEvents(found, new Map(), runAt);
    expect(run.map((r) => [r.event.starts_at, r.event.status, r.event.new])).toEqual([
      ['2015-07-06T12:00:00-07:00', 'scheduled', true],
      ['2015-07-09T15:00:00-07:00', 'moved', true],
      ['2015-07-09T12:00:00-07:00', 'scheduled', true],
      ['2015-07-11T12:00:00-07:00', 'scheduled', true],
      ['2015-07-12T12:00:00-07:00', 'scheduled', true],
      ['2015-07-13T12:00:00-07:00', 'scheduled', true],
      ['2015-07-14T12:00:00-07:00', 'scheduled', true],
      ['2015-07-15T12:00:00-07:00', 'scheduled', true],
    ]);
  });

  it('an occurrence seen before and then excluded is cancelled, a change', () => {
    // The calendar as it was before the organiser excluded 8 July.
    const before = read(file.replace('EXDATE;TZID=America/Los_Angeles:20150708T120000\n', ''));
    const seen = new Map<string, SeenEvent>(
      classifyEvents(before, new Map(), runAt).map((r) => [r.remember.event.key, { key: r.remember.event.key, ...r.remember }]),
    );
    const run = classifyEvents(read(file), seen, runAt);
    const changed = run.filter((r) => r.changed).map((r) => [r.event.starts_at, r.event.status, r.event.new]);
    expect(changed).toEqual([['2015-07-08T12:00:00-07:00', 'cancelled', false]]);
    expect(run.some((r) => r.event.starts_at === '2015-07-10T12:00:00-07:00')).toBe(false);
  });
});
