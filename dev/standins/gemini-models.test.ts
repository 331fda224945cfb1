import { ApiError, type GenerateContentConfig } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { buildPrompt } from '../../core/search/prompt';
import { useGeminiStandin } from '../harness/gemini-standin-client';

/** The Gemini stand-in through the official client: it answers and refuses what the real API does. */
describe('Gemini stand-in models', () => {
  const served = useGeminiStandin({ chunkDelayMs: 0 });
  const { standin } = served;

  const ask = (model: string, config: GenerateContentConfig, text = 'QUESTION: AI events') =>
    served.gemini.models.generateContent({ model, contents: [{ role: 'user', parts: [{ text }] }], config });

  /** The refusal's status and message as Google's error body carries them. */
  async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string; reason?: string }> {
    const err = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    const body = JSON.parse((err as ApiError).message).error;
    return { status: (err as ApiError).status, message: body.message, reason: body.details?.[0]?.reason };
  }

  it('describes models and aliases as models.get does; an alias does not name its target', async () => {
    expect(await served.gemini.models.get({ model: 'gemini-3.5-flash' })).toMatchObject({
      name: 'models/gemini-3.5-flash',
      version: '3.5-flash-05-2026',
      displayName: 'Gemini 3.5 Flash',
      thinking: true,
    });
    const alias = await served.gemini.models.get({ model: 'gemini-flash-latest' });
    expect(alias).toMatchObject({
      name: 'models/gemini-flash-latest',
      version: 'Gemini Flash Latest',
      description: 'Latest release of Gemini Flash',
    });
    expect(JSON.stringify(alias)).not.toMatch(/3\.\d/);
    const lite = await served.gemini.models.get({ model: 'gemini-flash-lite-latest' });
    expect(lite).toMatchObject({ name: 'models/gemini-flash-lite-latest', version: 'Gemini Flash-Lite Latest' });
    expect(JSON.stringify(lite)).not.toMatch(/3\.\d/);
    expect(await refusal(served.gemini.models.get({ model: 'gemini-9-flash' }))).toMatchObject({
      status: 404,
      message: expect.stringMatching(/not found/),
    });
  });

  it.each([
    ['gemini-3.5-flash', { thinkingBudget: 0 }, 'The model does not support setting thinking_budget to 0'],
    ['gemini-3.5-flash-lite', { thinkingBudget: 0 }, 'The model does not support setting thinking_budget to 0'],
    ['gemini-flash-latest', { thinkingBudget: 0 }, 'The model does not support setting thinking_budget to 0'],
    ['gemini-2.5-pro', { thinkingBudget: 0 }, 'Budget 0 is invalid. This model only works in thinking mode.'],
    ['gemini-3.1-pro-preview', { thinkingBudget: 0 }, 'Budget 0 is invalid. This model only works in thinking mode.'],
    ['gemini-2.5-flash', { thinkingLevel: 'LOW' }, 'Thinking level is not supported for this model.'],
    [
      'gemini-3.8-flash',
      { thinkingLevel: 'MINIMAL' },
      'Thinking level MINIMAL is not supported for this model. Please retry with other thinking level.',
    ],
    [
      'gemini-flash-latest',
      { thinkingLevel: 'MINIMAL' },
      'Thinking level MINIMAL is not supported for this model. Please retry with other thinking level.',
    ],
    [
      'gemini-3.1-pro-preview',
      { thinkingLevel: 'MINIMAL' },
      'Thinking level MINIMAL is not supported for this model. Please retry with other thinking level.',
    ],
    ['gemini-3.5-flash', { thinkingLevel: 'LOW', thinkingBudget: 0 }, 'You can only set only one of thinking budget and thinking level.'],
    [
      'gemini-3.5-flash',
      { thinkingLevel: 'ULTRA' },
      expect.stringMatching(/^Invalid value at 'generation_config\.thinking_config\.thinking_level'/),
    ],
  ] as const)('%s refuses %o with 400 INVALID_ARGUMENT', async (model, thinkingConfig, message) => {
    expect(await refusal(ask(model, { thinkingConfig: thinkingConfig as never }))).toEqual({ status: 400, message, reason: undefined });
  });

  it.each([
    ['gemini-2.5-flash', { thinkingBudget: 0 }],
    ['gemini-2.5-flash-lite', { thinkingBudget: 0 }],
    ['gemini-2.5-pro', undefined],
    ['gemini-3.5-flash', { thinkingLevel: 'MINIMAL' }],
    ['gemini-3.8-flash', { thinkingLevel: 'LOW' }],
    ['gemini-flash-latest', { thinkingLevel: 'low' }],
    ['gemini-3.5-flash-lite', { thinkingLevel: 'MINIMAL' }],
    ['gemini-3.1-flash-lite', { thinkingLevel: 'MINIMAL' }],
    ['gemini-flash-lite-latest', { thinkingLevel: 'minimal' }],
    ['gemini-3.1-pro-preview', { thinkingLevel: 'LOW' }],
  ] as const)('%s accepts %o', async (model, thinkingConfig) => {
    const res = await ask(model, thinkingConfig ? { thinkingConfig: thinkingConfig as never } : {});
    expect(res.text).toContain('AI Summit Berlin');
  });

  it('refuses structured output with Google Search on 2.5, and answers it on 3.x', async () => {
    const structured = { responseMimeType: 'application/json', responseJsonSchema: { type: 'object' }, tools: [{ googleSearch: {} }] };
    expect(await refusal(ask('gemini-2.5-flash', structured))).toEqual({
      status: 400,
      message: "Tool use with a response mime type: 'application/json' is unsupported",
      reason: undefined,
    });
    expect(JSON.parse((await ask('gemini-3.5-flash', structured)).text!).events).toHaveLength(2);
  });

  it('answers a structured request whose schema has an answer with the answer and its events, grounded on 3.x', async () => {
    const oneCall = {
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { answer: { type: 'string' }, events: { type: 'array' } } },
      tools: [{ googleSearch: {} }],
    };
    const res = await ask('gemini-flash-latest', oneCall);
    const json = JSON.parse(res.text!);
    expect(json.answer).toMatch(/^Here are events that match/);
    expect(json.events.map((e: { title: string }) => e.title)).toEqual(['AI Summit Berlin', 'Berlin Machine Learning Meetup']);
    expect(res.candidates?.[0]?.groundingMetadata?.groundingChunks).toHaveLength(2);
    expect(await refusal(ask('gemini-2.5-flash', oneCall))).toMatchObject({ status: 400 });
  });

  it("answers for an alias with the model it stands for now, as a real reply's modelVersion names it", async () => {
    const oneCall = {
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { answer: { type: 'string' }, events: { type: 'array' } } },
      tools: [{ googleSearch: {} }],
      thinkingConfig: { thinkingLevel: 'MINIMAL' as never },
    };
    const lite = await ask('gemini-flash-lite-latest', oneCall);
    expect(lite.modelVersion).toBe('gemini-3.5-flash-lite');
    expect(JSON.parse(lite.text!).events).toHaveLength(2);
    // A grounded 3.x call reads the recorded Gemini 3 tool-use size, whichever 3.x model answers (gemini-usage.ts).
    expect(lite.usageMetadata?.toolUsePromptTokenCount).toBe(18_329);
    expect((await ask('gemini-flash-latest', {})).modelVersion).toBe('gemini-3.8-flash');
  });

  it('runs one search query for a prompt that asks for as few as it can, two otherwise, or when set to ignore it', async () => {
    const prompt = buildPrompt({ question: 'AI events in Berlin', timezone: 'Europe/Berlin', now: new Date(), website: null });
    const queries = async (text: string) =>
      (await ask('gemini-3.5-flash', { tools: [{ googleSearch: {} }] }, text)).candidates?.[0]?.groundingMetadata?.webSearchQueries;
    const year = new Date().getUTCFullYear();
    expect(await queries(prompt)).toEqual([`AI events in Berlin ${year}`]);
    expect(await queries('QUESTION: AI events in Berlin')).toHaveLength(2);
    standin.models.change('gemini-3.5-flash', { heedsFewSearches: false });
    expect(await queries(prompt)).toHaveLength(2);
  });

  it('refuses an unknown model (404) and a revoked key (400 API_KEY_INVALID)', async () => {
    expect(await refusal(ask('gemini-9-flash', {}))).toMatchObject({
      status: 404,
      message: expect.stringMatching(/^models\/gemini-9-flash is not found/),
    });
    standin.revokeKey('test-key');
    expect(await refusal(ask('gemini-3.5-flash', {}))).toEqual({
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
      reason: 'API_KEY_INVALID',
    });
    expect((await refusal(served.gemini.models.get({ model: 'gemini-3.5-flash' }))).reason).toBe('API_KEY_INVALID');
  });

  it('can change a model under its name, as Google does', async () => {
    standin.models.change('gemini-3.5-flash', { levels: ['LOW', 'MEDIUM', 'HIGH'] });
    expect((await refusal(ask('gemini-3.5-flash', { thinkingConfig: { thinkingLevel: 'MINIMAL' as never } }))).message).toMatch(
      /MINIMAL is not supported/,
    );
  });

  it('answers a structured-output request with the agreed JSON: the website events, or dated grounded ones', async () => {
    const json = { responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } };
    const now = new Date(Date.UTC(2026, 10, 23, 12));
    const grounded = buildPrompt({ question: 'AI events in Berlin', timezone: 'Europe/Berlin', now, website: null });
    const answer = (await ask('gemini-3.5-flash', {})).text!;
    const reply = JSON.parse((await ask('gemini-3.5-flash', json, `${grounded}\nANSWER TO EXTRACT FROM:\n${answer}`)).text!);
    expect(reply.events).toEqual([
      expect.objectContaining({ title: 'AI Summit Berlin', starts_at: '2026-12-23', ends_at: '2026-12-24', all_day: true, city: 'Berlin' }),
      expect.objectContaining({
        title: 'Berlin Machine Learning Meetup',
        starts_at: '2026-12-01T19:00:00+01:00',
        all_day: false,
        timezone: 'Europe/Berlin',
        status: 'scheduled',
      }),
    ]);
    // The text answer names the same dates.
    const text = (await ask('gemini-3.5-flash', {}, grounded)).text!;
    expect(text).toContain('Date: 23 December 2026 to 24 December 2026');
    expect(text).toContain('Date: Tuesday, 1 December 2026, 19:00');

    const website = buildPrompt({
      question: 'AI events',
      timezone: 'Europe/Berlin',
      now,
      website: {
        url: 'https://example.com/events',
        title: 'Events',
        text: '',
        events: [
          {
            name: 'Robotics Day',
            start: '2027-01-10T10:00:00+01:00',
            end: '2027-01-10T17:00:00+01:00',
            place: 'Hall 4, Munich',
            url: 'https://example.com/r',
          },
        ],
      },
    } as never);
    const fromSite = JSON.parse((await ask('gemini-3.5-flash', json, website)).text!);
    expect(fromSite.events).toEqual([
      {
        title: 'Robotics Day',
        starts_at: '2027-01-10T10:00:00+01:00',
        ends_at: '2027-01-10T17:00:00+01:00',
        all_day: false,
        timezone: null,
        venue: 'Hall 4, Munich',
        city: 'Munich',
        online: null,
        url: 'https://example.com/r',
        status: 'scheduled',
      },
    ]);
  });
});
