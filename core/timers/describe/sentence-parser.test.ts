import { describe, expect, it } from 'vitest';
import { NO_FILTERS } from '../../contract/timer-filters';
import { unreadWords } from './describe-timer';
import { parseSentence } from './sentence-parser';

const now = new Date('2026-11-25T10:00:00Z');

describe('parseSentence keeps the place in the question', () => {
  it.each([
    ['every Friday at 8 pm, AI meetups within 20 km of Berlin', 'AI meetups within 20 km of Berlin', { name: 'Berlin', radius_km: 20 }],
    ['every Friday at 8 pm, AI meetups in Berlin', 'AI meetups in Berlin', { name: 'Berlin', radius_km: 25 }],
    ['täglich um 9 Uhr KI-Konferenzen in München', 'KI-Konferenzen in München', { name: 'München', radius_km: 25 }],
    ['jeden Montag um 18 Uhr Konzerte rund um Köln', 'Konzerte rund um Köln', { name: 'Köln', radius_km: 25 }],
    ['every day at 7 pm, talks, near Potsdam, in person', 'talks near Potsdam', { name: 'Potsdam', radius_km: 25 }],
  ])('%s', (sentence, ques, place) => {
    const outcome = parseSentence(sentence, now);
    expect(outcome.kind).toBe('described');
    if (outcome.kind !== 'described') return;
    expect(outcome.timer.ques).toBe(ques);
    expect(outcome.timer.filters.place).toEqual(place);
  });

  it('reads the whole issue sentence: schedule, question with its place, and the place filter', () => {
    expect(parseSentence('every Friday at 8 pm, AI meetups within 20 km of Berlin', now)).toEqual({
      kind: 'described',
      timer: {
        scheduleType: 'weekly',
        time: '20:00',
        weekday: 'Friday',
        ques: 'AI meetups within 20 km of Berlin',
        web: '',
        filters: { ...NO_FILTERS, place: { name: 'Berlin', radius_km: 20 } },
      },
      notes: [],
    });
  });
});

describe('parseSentence refuses a time no clock shows', () => {
  it.each([
    ['every day at 25:99 rust meetups', '“25:99” is not a time of day.'],
    ['every Monday at 18:75, jazz', '“18:75” is not a time of day.'],
    ['jeden Tag um 26 Uhr Konzerte', '“26 Uhr” is not a time of day.'],
    ['every day at 13 pm, talks', '“13 pm” is not a time of day.'],
  ])('%s', (sentence, start) => {
    const outcome = parseSentence(sentence, now);
    expect(outcome).toEqual({
      kind: 'refused',
      message: `${start} Write a time from 00:00 to 23:59, e.g. “at 20:00” or “at 8 pm”.`,
    });
  });

  it('still reads real times and German dates that look like clocks', () => {
    const late = parseSentence('every day at 23:59 rust meetups', now);
    expect(late.kind === 'described' && late.timer.time).toBe('23:59');
    const dated = parseSentence('jeden Freitag um 20 Uhr Jazz vom 1. bis 31. Dezember', now);
    expect(dated.kind === 'described' && dated.timer.filters.window).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });
});

describe('a sentence nothing of which was read fills nothing', () => {
  const blank = {
    refusal: null,
    scheduleType: null,
    time: null,
    weekday: null,
    question: '',
    website: null,
    window_next_days: null,
    window_from: null,
    window_to: null,
    place: null,
    radius_km: null,
    attendance: 'both' as const,
    exclude: [],
    unclear: [],
  };

  it('the parser hands it on, and the model reply that understood none of it is said back', () => {
    expect(parseSentence('asdf qwerty', now).kind).toBe('unsure');
    expect(unreadWords({ ...blank, question: 'asdf qwerty', unclear: ['asdf qwerty'] })).toBe(
      'We could not read “asdf qwerty”, so nothing is filled in. Say when and what to look for, e.g. “every Friday at 8 pm, AI meetups in Berlin”, or fill in the form yourself.',
    );
  });

  it('a reply with a question of its own, or a schedule, fills the form', () => {
    expect(unreadWords({ ...blank, question: 'React conferences', unclear: ['mornings'] })).toBeNull();
    expect(unreadWords({ ...blank, scheduleType: 'daily', unclear: ['asdf'] })).toBeNull();
  });
});
