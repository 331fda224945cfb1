import type { ModelDescription } from '../../core/contract/describe';

/*
 * The describe-a-timer call as Gemini answers it, for sample sentences the deterministic parser hands on
 * (core/timers/describe/sentence-parser.ts says "unsure"): structured JSON per the schema the call sends.
 * A sentence not in the table gets what a careful model says of words it cannot place: nothing guessed, the
 * whole sentence listed as unclear.
 */

const blank: ModelDescription = {
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
  attendance: 'both',
  exclude: [],
  unclear: [],
};

/** Sentences (lower case, spaces collapsed) and the answers Gemini gives for them. */
export const DESCRIBE_SAMPLES: Record<string, Partial<ModelDescription>> = {
  'thursday evenings around 7, design meetups in hamburg': {
    scheduleType: 'weekly',
    weekday: 'Thursday',
    time: '19:00',
    question: 'design meetups in Hamburg',
    place: 'Hamburg',
    radius_km: 25,
  },
  'jeden dienstagabend um 7 konzerte in wien, keine oper': {
    scheduleType: 'weekly',
    weekday: 'Tuesday',
    time: '19:00',
    question: 'Konzerte in Wien',
    place: 'Wien',
    radius_km: 25,
    exclude: ['Oper'],
  },
  'mornings, news about react conferences this quarter': {
    scheduleType: 'daily',
    question: 'React conferences',
    window_next_days: 90,
    unclear: ['mornings'],
  },
  'every full moon, astronomy nights near zurich': {
    refusal: 'A timer runs every day, or once a week on one weekday, at one time; “every full moon” is neither.',
    question: 'astronomy nights near Zurich',
  },
};

const key = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The JSON answer for a describe prompt: its sentence is on the line starting "SENTENCE: ". */
export function describeFor(prompt: string): ModelDescription {
  const sentence = /^SENTENCE: (.*)$/m.exec(prompt)?.[1] ?? '';
  const sample = DESCRIBE_SAMPLES[key(sentence)];
  return sample ? { ...blank, ...sample } : { ...blank, question: sentence, unclear: [sentence] };
}
