import { describe, expect, it } from 'vitest';
import type { EventFact } from '../website/event-fact';
import { eventsFromFacts } from './from-facts';
import { repeatWords } from './repeat-words';

describe('how a series repeats, in words', () => {
  it.each([
    ['FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', 'every second Tuesday'],
    ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH', 'every Tuesday and Thursday'],
    ['FREQ=WEEKLY', 'every week'],
    ['FREQ=WEEKLY;COUNT=10;BYDAY=MO', 'every Monday'],
    ['FREQ=DAILY', 'every day'],
    ['FREQ=DAILY;INTERVAL=3', 'every third day'],
    ['FREQ=MONTHLY;BYDAY=1MO', 'every month on the first Monday'],
    ['FREQ=MONTHLY;BYDAY=-1FR', 'every month on the last Friday'],
    ['FREQ=MONTHLY;BYDAY=TH;BYSETPOS=3', 'every month on the third Thursday'],
    ['FREQ=MONTHLY;BYMONTHDAY=15', 'every month on day 15'],
    ['FREQ=YEARLY', 'every year'],
  ])('%s', (rrule, words) => expect(repeatWords(rrule)).toBe(words));

  it('says nothing of a rule it cannot say exactly, or cannot read', () => {
    expect(repeatWords('FREQ=MONTHLY;BYMONTHDAY=-1')).toBeNull();
    expect(repeatWords('FREQ=WEEKLY;INTERVAL=9;BYDAY=TU')).toBeNull();
    expect(repeatWords('FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU')).toBeNull();
    expect(repeatWords('FREQ=HOURLY')).toBeNull();
    expect(repeatWords('not a rule')).toBeNull();
    expect(repeatWords(undefined)).toBeNull();
  });
});

describe('a series read from its source', () => {
  const now = new Date('2026-05-01T12:00:00Z');
  const read = (recurrence: EventFact['recurrence']) =>
    eventsFromFacts(
      {
        url: 'https://meetup.example/group',
        text: '',
        events: [
          { name: 'Berlin JS meetup', startAt: '2026-04-07T19:00:00', timezone: 'Europe/Berlin', uid: 'js@meetup.example', recurrence },
        ],
      },
      { searcherTimezone: 'UTC', now },
    );

  it('says on each occurrence how it repeats', () => {
    const events = read({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', rdates: [], exdates: [] });
    expect(events.map((e) => e.repeats)).toEqual(events.map(() => 'every second Tuesday'));
  });

  it('says nothing when extra dates make the rule not the whole series', () => {
    const events = read({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', rdates: ['2026-04-09T19:00:00'], exdates: [] });
    expect(events.every((e) => e.repeats === undefined)).toBe(true);
  });

  it('carries the rule on each occurrence when the series is that rule alone, for one card and one calendar entry', () => {
    const events = read({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', rdates: [], exdates: [] });
    expect(events.length).toBeGreaterThan(2);
    expect(new Set(events.map((e) => e.rrule))).toEqual(new Set(['FREQ=WEEKLY;INTERVAL=2;BYDAY=TU']));
    // One series: each occurrence's key names it and its own start.
    expect(new Set(events.map((e) => e.key.slice(0, e.key.lastIndexOf('@'))))).toEqual(new Set(['series:uid:js@meetup.example']));
  });

  it('carries no rule when the rule alone would not give its dates: excluded dates, a COUNT', () => {
    const excluded = read({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', rdates: [], exdates: ['2026-05-05T19:00:00'] });
    expect(excluded.every((e) => !e.rrule)).toBe(true);
    const counted = read({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=20', rdates: [], exdates: [] });
    expect(counted.some((e) => e.repeats)).toBe(true);
    expect(counted.every((e) => !e.rrule)).toBe(true);
  });
});
