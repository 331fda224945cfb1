import { describe, expect, it } from 'vitest';
import { foundEvent } from '../../dev/harness/found-event';
import { mergeEventsRead } from './merge';
import { eventsFromExtraction, parseExtraction } from './model-extraction';
import { parseStatedRepeat, repeatRule } from './stated-repeat';

// 12 January 2027 is a Tuesday, the second of its month; 13 January a Wednesday; 26 January the last Tuesday.
const timed = (starts_at: string) => ({ starts_at, all_day: false, timezone: 'Europe/Berlin' });
const form = (over: Record<string, unknown> = {}) => ({
  frequency: 'weekly',
  interval: 2,
  weekday: 'tuesday',
  week_of_month: null,
  until: null,
  ...over,
});
const rule = (over: Record<string, unknown>, starts_at = '2027-01-12T19:00:00+01:00') => {
  const repeat = parseStatedRepeat(form(over));
  return repeat ? repeatRule(repeat, timed(starts_at)) : 'refused';
};

describe('a repeat stated in words, as the closed form', () => {
  it('becomes the rule our code writes when it agrees with the start', () => {
    expect(rule({})).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU');
    expect(rule({ interval: 1 })).toBe('FREQ=WEEKLY;BYDAY=TU');
    expect(rule({ frequency: 'monthly', interval: 1, week_of_month: 2 })).toBe('FREQ=MONTHLY;BYDAY=2TU');
    expect(rule({ frequency: 'monthly', interval: 1, week_of_month: -1 }, '2027-01-26T19:00:00+01:00')).toBe('FREQ=MONTHLY;BYDAY=-1TU');
    // The whole last day counts: 23:59:59 in Berlin (winter, +01:00) is 22:59:59 UTC.
    expect(rule({ until: '2027-06-29' })).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20270629T215959Z');
    expect(repeatRule(parseStatedRepeat(form({ until: '2027-03-09' }))!, { starts_at: '2027-01-12', all_day: true, timezone: null })).toBe(
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20270309',
    );
  });

  it('is dropped when it disagrees with the start', () => {
    // "Every second Tuesday" from a Wednesday.
    expect(rule({}, '2027-01-13T19:00:00+01:00')).toBeNull();
    // The second Tuesday of the month said of the first, the last said of the second.
    expect(rule({ frequency: 'monthly', interval: 1, week_of_month: 2 }, '2027-01-05T19:00:00+01:00')).toBeNull();
    expect(rule({ frequency: 'monthly', interval: 1, week_of_month: -1 })).toBeNull();
    // An end before the start, one past five years, or an end of a timed event whose zone is not known.
    expect(rule({ until: '2027-01-11' })).toBeNull();
    expect(rule({ until: '2032-01-13' })).toBeNull();
    expect(
      repeatRule(parseStatedRepeat(form({ until: '2027-03-09' }))!, { ...timed('2027-01-12T19:00:00+01:00'), timezone: null }),
    ).toBeNull();
    expect(repeatRule(parseStatedRepeat(form())!, { starts_at: null, all_day: false, timezone: null })).toBeNull();
  });

  it('refuses any field out of its bounds or not of the form', () => {
    for (const bad of [
      { frequency: 'daily' },
      { frequency: 'yearly' },
      { interval: 0 },
      { interval: 5 },
      { interval: 2.5 },
      { interval: '2' },
      { interval: 1e300 },
      { weekday: 'tue' },
      { weekday: 'TU' },
      { weekday: 2 },
      { week_of_month: 2 }, // weekly with a week of the month
      { frequency: 'monthly', week_of_month: null }, // monthly without one
      { frequency: 'monthly', week_of_month: 5 },
      { frequency: 'monthly', week_of_month: 0 },
      { frequency: 'monthly', week_of_month: -2 },
      { until: '2027-02-30' },
      { until: '12/01/2027' },
      { until: '2027-03-09T00:00:00Z' },
      { until: 20270309 },
    ]) {
      expect(parseStatedRepeat(form(bad)), JSON.stringify(bad)).toBeNull();
    }
    for (const notAForm of [null, undefined, 'FREQ=DAILY;INTERVAL=1', ['weekly'], 42]) expect(parseStatedRepeat(notAForm)).toBeNull();
    // A raw rule beside the form is not read.
    expect(parseStatedRepeat({ ...form(), rrule: 'FREQ=SECONDLY' })).toEqual({
      frequency: 'weekly',
      interval: 2,
      weekday: 2,
      weekOfMonth: null,
      until: null,
    });
  });
});

describe('an extracted event with a stated repeat', () => {
  const reply = (repeat: unknown, starts_at = '2027-01-12T19:00:00+01:00') =>
    JSON.stringify({
      events: [
        {
          title: 'Rust Meetup Berlin',
          starts_at,
          ends_at: starts_at.replace('T19', 'T21'),
          all_day: false,
          timezone: 'Europe/Berlin',
          venue: 'c-base',
          city: 'Berlin',
          online: false,
          url: null,
          status: 'scheduled',
          repeat,
        },
      ],
    });
  const extracted = (repeat: unknown, starts_at?: string) =>
    eventsFromExtraction(parseExtraction(reply(repeat, starts_at)), { userTimezone: 'Europe/Berlin', website: null, sources: [] });

  it('is one series card: its words, its rule and a series key at its start', () => {
    const [e] = extracted(form());
    expect(e).toMatchObject({
      title: 'Rust Meetup Berlin',
      starts_at: '2027-01-12T19:00:00+01:00',
      repeats: 'every second Tuesday',
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
      key: 'series:event:rust meetup berlin|berlin@2027-01-12T19:00',
    });
    expect(extracted(form({ frequency: 'monthly', interval: 1, week_of_month: 2 }))[0]!.repeats).toBe('every month on the second Tuesday');
  });

  it('stays a one-off, kept, when the repeat disagrees with its start or is not the form', () => {
    for (const [repeat, start] of [
      [form(), '2027-01-13T19:00:00+01:00'],
      [form({ interval: 9 }), undefined],
      ['every second Tuesday', undefined],
      [{ frequency: 'weekly' }, undefined],
    ] as const) {
      const events = extracted(repeat, start);
      expect(events).toHaveLength(1);
      expect(events[0]!.rrule, JSON.stringify(repeat)).toBeUndefined();
      expect(events[0]!.repeats).toBeUndefined();
      expect(events[0]!.key.startsWith('series:')).toBe(false);
    }
  });

  it("gives a website's one-off of the same day its rule when the two are merged", () => {
    const page = 'https://rust.example/meetups';
    const website = foundEvent({
      title: 'Rust Meetup Berlin',
      starts_at: '2027-01-12T19:00:00+01:00',
      timezone: 'Europe/Berlin',
      city: 'Berlin',
      source_url: page,
      verification: { status: 'source', source_url: page, model_starts_at: null, landing_url: null, reason: null },
    });
    const [model] = extracted(form());
    const merged = mergeEventsRead([page], [website], [model!]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      starts_at: '2027-01-12T19:00:00+01:00',
      repeats: 'every second Tuesday',
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
      key: 'series:event:rust meetup berlin|berlin@2027-01-12T19:00',
      verification: { status: 'source' },
    });
  });
});
