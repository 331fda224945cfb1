import { describe, expect, it } from 'vitest';
import type { DescribedTimer } from '../../contract/describe';
import { NO_FILTERS, type TimerFilters } from '../../contract/timer-filters';
import { useGeminiStandin } from '../../../dev/harness/gemini-standin-client';
import { describeTimer } from './describe-timer';
import type { GeminiUsage } from '../../gemini/usage';

const now = new Date('2026-11-25T10:00:00Z');
const settings = { model: 'gemini-flash-latest', thinking: 'auto' } as const;

type Expected =
  | { refused: RegExp; source: 'parser' | 'model' }
  | {
      schedule: [DescribedTimer['scheduleType'], string | null, DescribedTimer['weekday']];
      ques: string;
      web?: string;
      filters?: Partial<TimerFilters>;
      source: 'parser' | 'model';
    };

const near = (name: string, radius_km = 25) => ({ place: { name, radius_km } });
const ONE_TIMER = /A timer runs every day, or once a week on one weekday, at one time/;

// Thirty-two sentences in English and German, each with the timer a person means, written by hand.
const SENTENCES: [string, Expected][] = [
  ['every day at 9 AI meetups', { schedule: ['daily', '09:00', null], ques: 'AI meetups', source: 'parser' }],
  ['weekly on Mon 18:30, jazz concerts', { schedule: ['weekly', '18:30', 'Monday'], ques: 'jazz concerts', source: 'parser' }],
  [
    'every Friday at 8, AI meetups in Berlin, in person, next two weeks',
    {
      schedule: ['weekly', '08:00', 'Friday'],
      ques: 'AI meetups in Berlin',
      filters: { ...near('Berlin'), attendance: 'in_person', window: { next_days: 14 } },
      source: 'parser',
    },
  ],
  ['every weekday at 7am tech news', { refused: /“every weekday” means five runs a week/, source: 'parser' }],
  ['twice a week AI meetups in Berlin', { refused: /“twice a week” cannot be one timer/, source: 'parser' }],
  ['zweimal pro Woche Meetups', { refused: /“zweimal pro Woche” cannot be one timer/, source: 'parser' }],
  [
    'every Tuesday 7 pm concerts in Vienna',
    { schedule: ['weekly', '19:00', 'Tuesday'], ques: 'concerts in Vienna', filters: near('Vienna'), source: 'parser' },
  ],
  [
    'every Sunday at noon, book fairs within 50 km of Leipzig, no comics',
    {
      schedule: ['weekly', '12:00', 'Sunday'],
      ques: 'book fairs within 50 km of Leipzig',
      filters: { ...near('Leipzig', 50), exclude: ['comics'] },
      source: 'parser',
    },
  ],
  ['every day at 12 noon tech talks', { schedule: ['daily', '12:00', null], ques: 'tech talks', source: 'parser' }],
  [
    'daily at 6pm Python meetups, in-person, within 10km of Munich',
    {
      schedule: ['daily', '18:00', null],
      ques: 'Python meetups within 10km of Munich',
      filters: { ...near('Munich', 10), attendance: 'in_person' },
      source: 'parser',
    },
  ],
  [
    'weekly at 9 am meetups, no crypto or nft',
    { schedule: ['weekly', '09:00', 'Monday'], ques: 'meetups', filters: { exclude: ['crypto', 'nft'] }, source: 'parser' },
  ],
  [
    'sundays at 10:15 flea markets near Potsdam https://example.org/markets',
    {
      schedule: ['weekly', '10:15', 'Sunday'],
      ques: 'flea markets near Potsdam',
      web: 'https://example.org/markets',
      filters: near('Potsdam'),
      source: 'parser',
    },
  ],
  [
    'every Wednesday at 6:30 pm, meetups from 20 December to 5 January',
    {
      schedule: ['weekly', '18:30', 'Wednesday'],
      ques: 'meetups',
      filters: { window: { from: '2026-12-20', to: '2027-01-05' } },
      source: 'parser',
    },
  ],
  [
    'every Friday at 8 AI meetups within 20 km of Berlin, not online, not crypto',
    {
      schedule: ['weekly', '08:00', 'Friday'],
      ques: 'AI meetups within 20 km of Berlin',
      filters: { ...near('Berlin', 20), attendance: 'in_person', exclude: ['crypto'] },
      source: 'parser',
    },
  ],
  [
    'jeden Montag um 18 Uhr Konzerte in Hamburg, nicht online',
    {
      schedule: ['weekly', '18:00', 'Monday'],
      ques: 'Konzerte in Hamburg',
      filters: { ...near('Hamburg'), attendance: 'in_person' },
      source: 'parser',
    },
  ],
  [
    'every day at 9pm Python talks, online',
    { schedule: ['daily', '21:00', null], ques: 'Python talks', filters: { attendance: 'online' }, source: 'parser' },
  ],
  [
    'every Saturday at 11:30 am, hackathons in the next 10 days, online or in person',
    {
      schedule: ['weekly', '11:30', 'Saturday'],
      ques: 'hackathons',
      filters: { window: { next_days: 10 } },
      source: 'parser',
    },
  ],
  ['every Monday and Thursday at 9 AI news', { refused: /“every Monday” and “Thursday” are two days/, source: 'parser' }],
  ['monthly, startup pitch nights', { refused: /“monthly” is not a schedule a timer has/, source: 'parser' }],
  [
    'täglich um 9 Uhr KI-Meetups in München',
    { schedule: ['daily', '09:00', null], ques: 'KI-Meetups in München', filters: near('München'), source: 'parser' },
  ],
  [
    'jeden Montag um 18:30 Jazzkonzerte im Umkreis von 30 km um Hamburg, vor Ort',
    {
      schedule: ['weekly', '18:30', 'Monday'],
      ques: 'Jazzkonzerte im Umkreis von 30 km um Hamburg',
      filters: { ...near('Hamburg', 30), attendance: 'in_person' },
      source: 'parser',
    },
  ],
  [
    'mittwochs mittags Startup-Events in Köln, ohne Krypto',
    {
      schedule: ['weekly', '12:00', 'Wednesday'],
      ques: 'Startup-Events in Köln',
      filters: { ...near('Köln'), exclude: ['Krypto'] },
      source: 'parser',
    },
  ],
  [
    'jeden Samstag um 10 Uhr Flohmärkte in den nächsten 3 Wochen',
    {
      schedule: ['weekly', '10:00', 'Saturday'],
      ques: 'Flohmärkte',
      filters: { window: { next_days: 21 } },
      source: 'parser',
    },
  ],
  [
    'täglich um 7:45 Uhr Konferenzen zwischen 1. und 20. Dezember',
    {
      schedule: ['daily', '07:45', null],
      ques: 'Konferenzen',
      filters: { window: { from: '2026-12-01', to: '2026-12-20' } },
      source: 'parser',
    },
  ],
  [
    'jeden Freitag um 20 Uhr Jazz vom 1. bis 15. Dezember, online',
    {
      schedule: ['weekly', '20:00', 'Friday'],
      ques: 'Jazz',
      filters: { window: { from: '2026-12-01', to: '2026-12-15' }, attendance: 'online' },
      source: 'parser',
    },
  ],
  ['werktags um 8 Uhr Nachrichten zu Tech-Events', { refused: /“werktags” means five runs a week/, source: 'parser' }],
  [
    'wöchentlich um 19 Uhr Lesungen in Leipzig, nur online',
    {
      schedule: ['weekly', '19:00', 'Monday'],
      ques: 'Lesungen in Leipzig',
      filters: { ...near('Leipzig'), attendance: 'online' },
      source: 'parser',
    },
  ],
  [
    'jeden Sonntag um Mitternacht Hackathons, keine Workshops',
    {
      schedule: ['weekly', '00:00', 'Sunday'],
      ques: 'Hackathons',
      filters: { exclude: ['Workshops'] },
      source: 'parser',
    },
  ],
  [
    'Thursday evenings around 7, design meetups in Hamburg',
    {
      schedule: ['weekly', '19:00', 'Thursday'],
      ques: 'design meetups in Hamburg',
      filters: near('Hamburg'),
      source: 'model',
    },
  ],
  [
    'jeden Dienstagabend um 7 Konzerte in Wien, keine Oper',
    {
      schedule: ['weekly', '19:00', 'Tuesday'],
      ques: 'Konzerte in Wien',
      filters: { ...near('Wien'), exclude: ['Oper'] },
      source: 'model',
    },
  ],
  [
    'mornings, news about React conferences this quarter',
    {
      schedule: ['daily', null, null],
      ques: 'React conferences',
      filters: { window: { next_days: 90 } },
      source: 'model',
    },
  ],
  ['every full moon, astronomy nights near Zurich', { refused: /“every full moon” is neither/, source: 'model' }],
];

describe('describeTimer: a timer from a sentence', () => {
  const served = useGeminiStandin({ chunkDelayMs: 0 });

  it('has thirty-two sentences to read', () => expect(SENTENCES).toHaveLength(32));

  it.each(SENTENCES)('%s', async (sentence, expected) => {
    const before = served.standin.state.requests;
    const used: { calls: number; promptTokens: number; model: string }[] = [];
    const onUsage = (usage: GeminiUsage, model: string) => used.push({ ...usage, model });
    const outcome = await describeTimer({ gemini: served.gemini, settings, onUsage }, { sentence, timezone: 'Europe/Berlin', now });
    // The common forms cost no Gemini call; the model only reads the rest, and what its call used is told.
    expect(served.standin.state.requests - before).toBe(expected.source === 'model' ? 1 : 0);
    expect(used).toHaveLength(expected.source === 'model' ? 1 : 0);
    if (used[0]) expect(used[0]).toMatchObject({ calls: 1, promptTokens: expect.any(Number) });
    if (used[0]) expect(used[0].promptTokens).toBeGreaterThan(0);
    if ('refused' in expected) {
      expect(outcome.kind).toBe('refused');
      if (outcome.kind === 'refused') expect(outcome.message).toMatch(expected.refused);
      if (expected.source === 'parser' && outcome.kind === 'refused') expect(outcome.message).toMatch(ONE_TIMER);
      return;
    }
    expect(outcome.kind).toBe('described');
    if (outcome.kind !== 'described') return;
    const [scheduleType, time, weekday] = expected.schedule;
    expect(outcome.reply.source).toBe(expected.source);
    expect(outcome.reply.timer).toEqual({
      scheduleType,
      time,
      weekday,
      ques: expected.ques,
      web: expected.web ?? '',
      filters: { ...NO_FILTERS, ...expected.filters },
    });
  });

  it('says what it filled in or did not understand, instead of guessing silently', async () => {
    const at8 = await describeTimer(
      { gemini: served.gemini, settings },
      { sentence: 'every Friday at 8 AI meetups', timezone: 'UTC', now },
    );
    expect(at8.kind === 'described' && at8.reply.notes).toEqual([
      '“at 8” is read as 08:00 in the morning; write “8 pm” or “20:00” for the evening.',
    ]);
    const mornings = await describeTimer(
      { gemini: served.gemini, settings },
      { sentence: 'mornings, news about React conferences this quarter', timezone: 'UTC', now },
    );
    expect(mornings.kind === 'described' && mornings.reply.notes).toEqual([
      'Not understood: “mornings”. Check the form.',
      'No time was said: choose one in the form.',
    ]);
    // The model's call carries the schema and the sentence; its reply was checked against the contract.
    expect(served.standin.lastRequest?.body.generationConfig?.responseMimeType).toBe('application/json');
    expect(served.standin.lastRequest?.prompt).toMatch(/SENTENCE: mornings, news about React conferences this quarter$/);
  });
});

describe('a sentence that asks to post the timer to a chat channel', () => {
  const standin = useGeminiStandin();
  it.each([
    ['every day at 9, AI meetups in Berlin, and post it to Slack', 'slack', 'AI meetups in Berlin'],
    ['weekly on Friday at 18:00 jazz concerts and send them to our Discord channel', 'discord', 'jazz concerts'],
    ['jeden Montag um 8 KI-Meetups in Berlin und poste es in Teams', 'teams', 'KI-Meetups in Berlin'],
    ['every day at 7 board game meetups, push it to my phone via ntfy', 'ntfy', 'board game meetups'],
  ] as const)('“%s” asks for a %s address and keeps the rest as the timer', async (sentence, kind, ques) => {
    const outcome = await describeTimer({ gemini: standin.gemini, settings }, { sentence, timezone: 'Europe/Berlin', now });
    expect(outcome.kind).toBe('described');
    if (outcome.kind !== 'described') return;
    expect(outcome.reply.channel).toEqual({ kind });
    expect(outcome.reply.timer.ques).toBe(ques);
    expect(outcome.reply.notes.at(-1)).toMatch(/^You asked to post it to .+: paste its address in the .+ address field/);
  });

  it('a sentence that only mentions a service asks for nothing', async () => {
    const outcome = await describeTimer(
      { gemini: standin.gemini, settings },
      { sentence: 'every day at 9 Slack community meetups', timezone: 'Europe/Berlin', now },
    );
    expect(outcome.kind === 'described' && outcome.reply.channel).toBeFalsy();
  });
});
