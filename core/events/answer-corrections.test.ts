import { describe, expect, it } from 'vitest';
import type { Event } from '../contract/event';
import { answerCorrections, markedAnswer } from './answer-corrections';

function event(title: string, startsAt: string, modelStartsAt: string | null, more: Partial<Event> = {}): Event {
  return {
    key: `key-${title}`,
    title,
    starts_at: startsAt,
    ends_at: null,
    all_day: false,
    timezone: 'Europe/Berlin',
    timezone_source: 'source',
    venue: null,
    city: 'Berlin',
    online: false,
    url: null,
    source_url: 'https://meetup.example/ml',
    status: 'scheduled',
    new: true,
    verification: {
      status: modelStartsAt ? 'corrected' : 'confirmed',
      source_url: 'https://meetup.example/ml',
      model_starts_at: modelStartsAt,
      landing_url: null,
      reason: null,
    },
    ...more,
  };
}

const MEETUP = event('Berlin Machine Learning Meetup', '2026-12-15T19:00:00+01:00', '2026-12-16T21:00:00+01:00');

describe('the dates an answer states that its checked events contradict', () => {
  it('marks the ISO date and its time where it stands, with the checked date beside it', () => {
    const answer =
      'Here are events:\n\nBerlin Machine Learning Meetup\nDate: 2026-12-16, 21:00 to 23:00\nPlace: Factory Berlin\n\n' +
      'Berlin AI Film Night\nDate: 2026-12-17, 19:00\n';
    const corrections = answerCorrections(answer, [MEETUP, event('Berlin AI Film Night', '2026-12-17T19:00:00+01:00', null)]);
    expect(corrections).toEqual([
      {
        start: 55,
        end: 72,
        said: '2026-12-16, 21:00',
        checked: 'Tue 15 Dec 2026, 19:00',
        starts_at: '2026-12-15T19:00:00+01:00',
        event_key: 'key-Berlin Machine Learning Meetup',
      },
    ]);
    expect(answer.slice(55, 72)).toBe('2026-12-16, 21:00');
    expect(markedAnswer(answer, corrections)).toBe(
      'Here are events:\n\nBerlin Machine Learning Meetup\nDate: 2026-12-16, 21:00 [corrected: Tue 15 Dec 2026, 19:00] to 23:00\nPlace: Factory Berlin\n\n' +
        'Berlin AI Film Night\nDate: 2026-12-17, 19:00\n',
    );
  });

  it('reads the dates written in words, with or without weekday, year and time', () => {
    const said = (answer: string) => answerCorrections(answer, [MEETUP]).map((c) => c.said);
    expect(said('Berlin Machine Learning Meetup on Wed 16 Dec, 21:00.')).toEqual(['Wed 16 Dec, 21:00']);
    expect(said('Berlin Machine Learning Meetup: Wednesday, 16 December 2026 at 9 pm')).toEqual(['Wednesday, 16 December 2026 at 9 pm']);
    expect(said('Berlin Machine Learning Meetup — December 16th, 2026, 9:00 PM')).toEqual(['December 16th, 2026, 9:00 PM']);
    expect(said('Berlin Machine Learning Meetup (16.12.2026 21:00)')).toEqual(['16.12.2026 21:00']);
    // The date alone, when no time stands beside it.
    expect(said('Berlin Machine Learning Meetup is on December 16.')).toEqual(['December 16']);
    // Another day, or the same number in another date, is not the model's date.
    expect(said('Berlin Machine Learning Meetup on 2026-12-06 and 2026-11-16, or 116 December.')).toEqual([]);
  });

  it('marks every place the answer states it, and only in the part about the corrected event', () => {
    const answer =
      'Berlin Machine Learning Meetup (2026-12-16): see below.\nAI Summit Berlin: 2026-12-16, all day.\n' +
      'More on Berlin Machine Learning Meetup later.';
    const corrections = answerCorrections(answer, [MEETUP, event('AI Summit Berlin', '2026-12-16', null, { all_day: true })]);
    expect(corrections.map((c) => [c.start, c.said])).toEqual([[32, '2026-12-16']]);
    const twice = 'Berlin Machine Learning Meetup: Wed 16 Dec 2026, 21:00 (doors open December 16, 20:30).';
    expect(answerCorrections(twice, [MEETUP]).map((c) => c.said)).toEqual(['Wed 16 Dec 2026, 21:00', 'December 16']);
  });

  it('a time corrected on the same day marks the date with its time, never the day alone', () => {
    const later = event('Berlin Machine Learning Meetup', '2026-12-15T19:00:00+01:00', '2026-12-15T21:00:00+01:00');
    const answer = 'Berlin Machine Learning Meetup on Tue 15 Dec at 21:00; it is on 15 December.';
    const corrections = answerCorrections(answer, [later]);
    expect(corrections.map((c) => [c.said, c.checked])).toEqual([['Tue 15 Dec at 21:00', 'Tue 15 Dec 2026, 19:00']]);
    expect(markedAnswer(answer, corrections)).toBe(
      'Berlin Machine Learning Meetup on Tue 15 Dec at 21:00 [corrected: Tue 15 Dec 2026, 19:00]; it is on 15 December.',
    );
  });

  it('a whole-day event is corrected to its day; confirmed, unchecked and end-only corrections mark nothing', () => {
    const summit = event('AI Summit Berlin', '2027-01-14', '2027-01-15', { all_day: true });
    expect(answerCorrections('AI Summit Berlin: 15 January 2027 to 16 January 2027', [summit])).toEqual([
      {
        start: 18,
        end: 33,
        said: '15 January 2027',
        checked: 'Thu 14 Jan 2027',
        starts_at: '2027-01-14',
        event_key: 'key-AI Summit Berlin',
      },
    ]);
    const confirmed = event('Berlin Machine Learning Meetup', '2026-12-16T21:00:00+01:00', null);
    const unchecked = { ...MEETUP, verification: null };
    const sameStart = event('Berlin Machine Learning Meetup', '2026-12-16T21:00:00+01:00', '2026-12-16T21:00:00+01:00');
    const answer = 'Berlin Machine Learning Meetup: 2026-12-16, 21:00';
    expect(answerCorrections(answer, [confirmed])).toEqual([]);
    expect(answerCorrections(answer, [unchecked])).toEqual([]);
    expect(answerCorrections(answer, [sameStart])).toEqual([]);
    expect(markedAnswer(answer, [])).toBe(answer);
  });

  it('without its title in the answer, looks before the first titled event only', () => {
    const renamed = { ...MEETUP, title: 'ML Meetup Berlin' };
    const answer = 'A meetup on 2026-12-16 at 21:00.\nAI Summit Berlin, 2026-12-16.';
    const summit = event('AI Summit Berlin', '2026-12-16', null, { all_day: true });
    expect(answerCorrections(answer, [renamed, summit]).map((c) => c.said)).toEqual(['2026-12-16 at 21:00']);
  });
});
