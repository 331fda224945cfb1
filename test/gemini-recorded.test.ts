import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timerBackoffStrategy, TIMER_BACKOFF } from '../core/timers/job-policy';
import { type AnswerDelivery, askGemini, CUT_NOTE } from '../core/gemini/answer';
import { estimateCost, priceTable } from '../core/gemini/prices';
import { sanitizeSearchSuggestions } from '../core/gemini/search-suggestions';
import type { GeminiUsage } from '../core/gemini/usage';
import { SearchError } from '../core/search-error';
import { recordedReplies, startReplay } from './support/gemini-recording';

/**
 * Real Gemini replies recorded by public test suites (test/fixtures/gemini-recorded/README.md), served byte for
 * byte on loopback to the official client, and read by the product's own answer code. Every expected value
 * below was read off the recording by hand: the text, the usageMetadata, the search queries; the cost is
 * that usage at Google's prices (core/gemini/prices.ts's rows, written out here).
 */
const table = priceTable([]);
const day = new Date('2026-11-27T12:00:00Z');

interface Case {
  name: string;
  file: string;
  interaction?: number;
  delivery: AnswerDelivery;
  /** The model asked for (the recording's own); the cost follows the model the reply names. */
  model: string;
  json?: boolean;
  grounding?: boolean;
  /** The answer's text before any sources block, whole or its beginning. */
  text?: string;
  textStart?: string;
  usage: Omit<GeminiUsage, 'calls' | 'groundedCalls'>;
  costUsd: number;
  tier?: 'standard' | 'flex';
  chip?: boolean;
  error?: string;
}

const usage = (promptTokens: number, outputTokens: number, thinkingTokens = 0, groundingQueries = 0) => ({
  promptTokens,
  outputTokens,
  thinkingTokens,
  groundingQueries,
});
// USD per token of a row: 2.5 Flash $0.30/$2.50, 2.5 Pro $1.25/$10 (also what a model matching no row pays),
// 3 Pro $2/$12, 3.x Flash $1.50/$9; a grounded 2.5 call $0.035.
const cost = (inPerM: number, outPerM: number, tokensIn: number, tokensOut: number) => (tokensIn * inPerM + tokensOut * outPerM) / 1e6;

const CASES: Case[] = [
  {
    name: 'a whole 2.5 Flash answer with thinking tokens',
    file: 'pydantic-ai--test_google_model.yaml',
    delivery: 'whole',
    model: 'gemini-2.5-flash',
    text: 'Hello! How can I help you today?',
    usage: usage(9, 9, 34),
    costUsd: cost(0.3, 2.5, 9, 43),
  },
  {
    name: 'a longer whole 2.5 Flash answer',
    file: 'pydantic-ai--test_google_model_empty_assistant_response.yaml',
    delivery: 'whole',
    model: 'gemini-2.5-flash',
    textStart: "As an AI, I don't retain memory of past interactions",
    usage: usage(10, 119, 699),
    costUsd: cost(0.3, 2.5, 10, 818),
  },
  {
    name: 'a streamed 2.0 Flash answer (a model matching no row is priced as 2.5 Pro)',
    file: 'pydantic-ai--test_google_model_iter_stream.yaml',
    interaction: 2,
    delivery: 'streamed',
    model: 'gemini-2.0-flash',
    text: 'The temperature in Paris is 30°C.\n',
    usage: usage(79, 12),
    costUsd: cost(1.25, 10, 79, 12),
  },
  {
    name: 'a stream that is only a function call: no text, the usage still counted',
    file: 'pydantic-ai--test_google_model_iter_stream.yaml',
    interaction: 0,
    delivery: 'streamed',
    model: 'gemini-2.0-flash',
    error: 'empty',
    usage: usage(52, 5),
    costUsd: cost(1.25, 10, 52, 5),
  },
  {
    name: 'an answer cut at MAX_TOKENS is shown as cut',
    file: 'pydantic-ai--test_google_model_max_tokens.yaml',
    delivery: 'whole',
    model: 'gemini-2.5-flash',
    text: `The capital of France is${CUT_NOTE}`,
    usage: usage(15, 5),
    costUsd: cost(0.3, 2.5, 15, 5),
  },
  {
    name: 'an empty reply at MAX_TOKENS (thinking used the budget): cut_short, its tokens counted',
    file: 'pydantic-ai--test_google_model_max_tokens_thinking_model_empty_response.yaml',
    delivery: 'whole',
    model: 'gemini-2.5-pro',
    error: 'cut_short',
    usage: usage(15, 0, 2),
    costUsd: cost(1.25, 10, 15, 2),
  },
  {
    name: 'a SAFETY finish: blocked, its prompt tokens counted',
    file: 'pydantic-ai--test_google_model_safety_settings.yaml',
    delivery: 'whole',
    model: 'gemini-1.5-flash',
    error: 'blocked',
    usage: usage(14, 0),
    costUsd: cost(1.25, 10, 14, 0),
  },
  {
    name: 'a streamed 2.0 Flash answer in three pieces',
    file: 'pydantic-ai--test_google_model_stream.yaml',
    delivery: 'streamed',
    model: 'gemini-2.0-flash-exp',
    text: 'The capital of France is Paris.\n',
    usage: usage(13, 8),
    costUsd: cost(1.25, 10, 13, 8),
  },
  {
    name: 'a reply naming its model as models/gemini-2.5-pro',
    file: 'pydantic-ai--test_google_model_thinking_config.yaml',
    delivery: 'whole',
    model: 'gemini-2.5-pro-preview-03-25',
    text: 'The capital of France is **Paris**.',
    usage: usage(15, 8, 275),
    costUsd: cost(1.25, 10, 15, 283),
  },
  {
    name: 'a streamed 2.5 Pro answer with thought parts, which are not the answer',
    file: 'pydantic-ai--test_google_model_thinking_part_iter.yaml',
    delivery: 'streamed',
    model: 'gemini-2.5-pro',
    textStart: 'This is a great question! Safely crossing the street is all about being aware and predictable.',
    usage: usage(34, 469, 787),
    costUsd: cost(1.25, 10, 34, 1256),
  },
  {
    name: 'a whole 2.5 Flash answer after a countTokens call',
    file: 'pydantic-ai--test_google_model_usage_limit_not_exceeded.yaml',
    interaction: 1,
    delivery: 'whole',
    model: 'gemini-2.5-flash',
    textStart: "That's a classic! It's famously known as a **pangram**",
    usage: usage(12, 109, 806),
    costUsd: cost(0.3, 2.5, 12, 915),
  },
  {
    name: 'a whole answer grounded with Google Search (2.5 Pro, 119 tool-use tokens)',
    file: 'pydantic-ai--test_google_model_web_search_tool.yaml',
    interaction: 0,
    delivery: 'whole',
    model: 'gemini-2.5-pro',
    grounding: true,
    textStart: '## Weather in San Francisco is Mild and Partly Cloudy\n\n**San Francisco, CA**',
    usage: usage(17 + 119, 201, 213, 1),
    costUsd: cost(1.25, 10, 136, 414) + 0.035,
    chip: true,
  },
  {
    name: 'a second grounded whole answer (286 tool-use tokens)',
    file: 'pydantic-ai--test_google_model_web_search_tool.yaml',
    interaction: 1,
    delivery: 'whole',
    model: 'gemini-2.5-pro',
    grounding: true,
    textStart: 'In Mexico City today, you can expect a day of mixed sun and clouds',
    usage: usage(209 + 286, 206, 131, 1),
    costUsd: cost(1.25, 10, 495, 337) + 0.035,
    chip: true,
  },
  {
    name: 'a streamed grounded answer: queries and chip in the last piece (102 tool-use tokens)',
    file: 'pydantic-ai--test_google_model_web_search_tool_stream.yaml',
    interaction: 0,
    delivery: 'streamed',
    model: 'gemini-2.5-pro',
    grounding: true,
    textStart: '### Weather in San Francisco is Mild and Partly Cloudy Today',
    usage: usage(17 + 102, 241, 412, 1),
    costUsd: cost(1.25, 10, 119, 653) + 0.035,
    chip: true,
  },
  {
    name: 'a grounded whole answer (319 tool-use tokens)',
    file: 'pydantic-ai--test_google_model_web_search_tool_stream.yaml',
    interaction: 1,
    delivery: 'whole',
    model: 'gemini-2.5-pro',
    grounding: true,
    textStart: '### Scattered Thunderstorms and Mild Temperatures in Mexico City Today',
    usage: usage(249 + 319, 240, 301, 1),
    costUsd: cost(1.25, 10, 568, 541) + 0.035,
    chip: true,
  },
  {
    name: 'structured output: the JSON text returned as is',
    file: 'pydantic-ai--test_google_native_output.yaml',
    delivery: 'whole',
    model: 'gemini-2.0-flash',
    json: true,
    text: '{\n  "city": "Mexico City",\n  "country": "Mexico"\n}',
    usage: usage(8, 20),
    costUsd: cost(1.25, 10, 8, 20),
  },
  {
    name: 'structured output from 2.5 Flash with thinking',
    file: 'pydantic-ai--test_google_nested_models_with_native_output.yaml',
    delivery: 'whole',
    model: 'gemini-2.5-flash',
    json: true,
    textStart: '{"name":"My Collection","pages":[{"title":"Page One"',
    usage: usage(26, 64, 360),
    costUsd: cost(0.3, 2.5, 26, 424),
  },
  {
    name: 'a stream whose usage grows piece by piece: the last totals count',
    file: 'pydantic-ai--test_google_stream_usage_is_live_mid_stream.yaml',
    delivery: 'streamed',
    model: 'gemini-2.5-flash',
    text: Array.from({ length: 30 }, (_, i) => String(i + 1)).join('\n'),
    usage: usage(18, 80, 35),
    costUsd: cost(0.3, 2.5, 18, 115),
  },
  {
    name: 'a Vertex reply served on Flex (trafficType ON_DEMAND_FLEX) is priced at Flex',
    file: 'pydantic-ai--test_google_vertex_service_tier_flex_stream.yaml',
    delivery: 'streamed',
    model: 'gemini-3-flash-preview',
    text: 'OK',
    usage: usage(5, 1, 100),
    costUsd: cost(1.5, 9, 5, 101) / 2,
    tier: 'flex',
  },
  {
    name: 'a 429 with RetryInfo',
    file: 'vercel-ai--google-429-retry-info.json',
    delivery: 'whole',
    model: 'gemini-2.5-flash',
    error: 'upstream_busy',
    usage: usage(0, 0),
    costUsd: 0,
  },
  {
    name: 'a streamed Gemini 3 Pro answer, priced at its own row',
    file: 'vercel-ai--google-reasoning-gemini3.chunks.txt',
    delivery: 'streamed',
    model: 'gemini-3-pro-preview',
    text: 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y',
    usage: usage(9, 23, 302),
    costUsd: cost(2, 12, 9, 325),
  },
  {
    name: 'a whole Gemini 3 Pro answer',
    file: 'vercel-ai--google-reasoning-gemini3.json',
    delivery: 'whole',
    model: 'gemini-3-pro-preview',
    text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
    usage: usage(9, 29, 258),
    costUsd: cost(2, 12, 9, 287),
  },
  {
    name: 'a streamed Gemini 3 Pro answer with thought signatures',
    file: 'vercel-ai--google-reasoning.chunks.txt',
    delivery: 'streamed',
    model: 'gemini-3-pro-preview',
    text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
    usage: usage(9, 29, 256),
    costUsd: cost(2, 12, 9, 285),
  },
  {
    name: 'a whole Gemini 3 Pro answer with thought signatures',
    file: 'vercel-ai--google-reasoning.json',
    delivery: 'whole',
    model: 'gemini-3-pro-preview',
    text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
    usage: usage(9, 29, 282),
    costUsd: cost(2, 12, 9, 311),
  },
  {
    name: 'a streamed Gemini 3 Pro text answer',
    file: 'vercel-ai--google-text.chunks.txt',
    delivery: 'streamed',
    model: 'gemini-3-pro-preview',
    text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
    usage: usage(9, 23, 185),
    costUsd: cost(2, 12, 9, 208),
  },
  {
    name: 'a whole Gemini 3 Pro text answer',
    file: 'vercel-ai--google-text.json',
    delivery: 'whole',
    model: 'gemini-3-pro-preview',
    text: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
    usage: usage(9, 28, 244),
    costUsd: cost(2, 12, 9, 272),
  },
  {
    name: 'a whole 3.7 Flash answer',
    file: 'vercel-ai--google-thinking-level-low-success.json',
    delivery: 'whole',
    model: 'gemini-3.7-flash',
    text: 'OK',
    usage: usage(4, 1),
    costUsd: cost(1.5, 9, 4, 1),
  },
  {
    name: 'an empty reply after tool use: empty, its tokens (89 tool-use) counted',
    file: 'vercel-ai--google-tool-use-usage.json',
    delivery: 'whole',
    model: 'gemini-3.6-flash',
    error: 'empty',
    usage: usage(55 + 89, 51, 56),
    costUsd: cost(1.5, 9, 144, 107),
  },
  {
    name: 'a prompt blocked for PROHIBITED_CONTENT: blocked, its prompt tokens counted',
    file: 'vercel-ai--issue-19758-prompt-block.chunks.txt',
    delivery: 'streamed',
    model: 'gemini-3.7-flash',
    error: 'blocked',
    usage: usage(9, 0),
    costUsd: cost(1.5, 9, 9, 0),
  },
  {
    name: 'a streamed 2.5 Flash answer that used Google Search (308 tool-use tokens)',
    file: 'vercel-ai--issue-19822-google-search-live.chunks.txt',
    delivery: 'streamed',
    model: 'gemini-2.5-flash',
    grounding: true,
    text: 'The current date is Wednesday, August 26, 2026.',
    usage: usage(17 + 308, 37, 333),
    costUsd: cost(0.3, 2.5, 325, 370),
  },
  ...['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.5-flash-lite'].map(
    (model): Case => ({
      name: `a 400 INVALID_ARGUMENT from ${model}`,
      file: `vercel-ai--issue-8943-${model}-error.json`,
      delivery: 'whole',
      model,
      error: 'upstream_rejected',
      usage: usage(0, 0),
      costUsd: 0,
    }),
  ),
];

describe('real recorded Gemini replies read by the product', () => {
  let replay: Awaited<ReturnType<typeof startReplay>>;
  beforeAll(async () => {
    replay = await startReplay();
  });
  afterAll(() => replay.close());

  async function ask(c: Pick<Case, 'delivery' | 'model' | 'json' | 'grounding'>, pieces: string[] = []) {
    return askGemini(replay.gemini, {
      model: c.model,
      delivery: c.delivery,
      thinking: 'off',
      prompt: 'QUESTION: recorded',
      grounding: c.grounding ?? false,
      ...(c.json ? { responseJsonSchema: { type: 'object' } } : {}),
      onText: (t) => {
        pieces.push(t);
      },
    });
  }

  it('holds at least 30 recorded replies', () => {
    const files = new Set(CASES.map((c) => c.file));
    const replies = [...files].reduce((n, f) => n + recordedReplies(f).length, 0);
    expect(replies).toBeGreaterThanOrEqual(30);
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const reply = recordedReplies(c.file)[c.interaction ?? 0];
      if (!reply) throw new Error(`${c.file} has no interaction ${c.interaction}`);
      replay.queue(reply);
      const sent = replay.received.length;
      const pieces: string[] = [];
      const outcome = await ask(c, pieces).then(
        (o) => ({ ok: o }),
        (err: unknown) => ({ err }),
      );
      expect(replay.received[sent]?.path).toContain(c.delivery === 'streamed' && !c.json ? ':streamGenerateContent' : ':generateContent');
      if (c.error) {
        expect('err' in outcome, 'the reply is read as a failure').toBe(true);
        const err = (outcome as { err: SearchError }).err;
        expect(err).toBeInstanceOf(SearchError);
        expect(err.code).toBe(c.error);
        const used = err.usedBeforeFailure;
        if (c.costUsd === 0) {
          expect(used).toBeNull();
        } else {
          expect(used?.usage).toMatchObject(c.usage);
          expect(estimateCost(table, used?.model ?? '', used?.usage ?? ({} as GeminiUsage), day, used?.tier)).toBeCloseTo(c.costUsd, 10);
        }
        return;
      }
      if (!('ok' in outcome)) throw (outcome as { err: unknown }).err;
      const got = outcome.ok;
      const answer = got.answer.split('\n\nSources:\n')[0] ?? '';
      if (c.text !== undefined) expect(answer).toBe(c.text);
      if (c.textStart !== undefined) expect(answer.startsWith(c.textStart)).toBe(true);
      expect(got.usage).toMatchObject(c.usage);
      expect(got.tier).toBe(c.tier ?? 'standard');
      expect(estimateCost(table, got.answeredBy, got.usage, day, got.tier)).toBeCloseTo(c.costUsd, 10);
      expect(got.searchSuggestions !== null).toBe(c.chip ?? false);
      if (!c.json) expect(pieces.join('')).toBe(got.answer);
    });
  }

  it("shows the grounded answer's sources by title and site, each with Google's link whole", async () => {
    replay.queue(recordedReplies('pydantic-ai--test_google_model_web_search_tool.yaml')[0]!);
    const got = await ask({ delivery: 'whole', model: 'gemini-2.5-pro', grounding: true });
    const sources = got.answer.split('\n\nSources:\n')[1]?.trim().split('\n');
    expect(sources).toEqual([
      // Recorded with raw spaces in its query string; they are escaped so the whole link is one link.
      'Weather information for San Francisco, CA, US (google.com): https://www.google.com/search?q=weather+in+San%20Francisco,%20CA,+US',
      'weather.gov: https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQF_uqo2G5Goeww8iF1L_dYa2sqWGhzu_UnxEZd1gQ7ZNuXEVVVYEEYcx_La3kuODFm0dPUhHeF4qGP1c6kJ86i4SKfvRqFitMCvNiDx07eC5iM7axwepoTv3FeUdIRC-ou1P-6DDykZ4QzcxcrKISa_1Q==',
      'wunderground.com: https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQFywixFZicmDjijfhfLNw8ya7XdqWR31aJp8CHyULLelG8bujH1TuqeP9RAhK6Pcm1qz11ujm2yM7gM5bJXDFsZwbsubub4cnUp5ixRaloJcjVrHkyd5RHblhkDDxHGiREV9BcuqeJovdr8qhtrCKMcvJk=',
    ]);
  });

  it("keeps the chip's two logos with their viewBox and its search link, as Google provides them", async () => {
    replay.queue(recordedReplies('pydantic-ai--test_google_model_web_search_tool.yaml')[0]!);
    const got = await ask({ delivery: 'whole', model: 'gemini-2.5-pro', grounding: true });
    const chip = sanitizeSearchSuggestions(got.searchSuggestions ?? '');
    expect(chip).toContain('<svg class="logo-light" width="18" height="18" viewBox="9 9 35 35"');
    expect(chip).toContain('<svg class="logo-dark" width="18" height="18" viewBox="0 0 48 48"');
    expect(chip).toContain('fill-rule="evenodd" clip-rule="evenodd"');
    expect(chip).toMatch(
      /<a class="chip" href="https:\/\/vertexaisearch\.cloud\.google\.com\/grounding-api-redirect\/[^"]+" target="_blank" rel="noopener noreferrer">weather in San Francisco today<\/a>/,
    );
  });

  it('a stream broken after three recorded pieces: the text so far went out, and the usage it reported is kept', async () => {
    const reply = recordedReplies('pydantic-ai--test_google_model_web_search_tool_stream.yaml')[0]!;
    replay.queue(reply, { cutAfterFrames: 3 });
    const pieces: string[] = [];
    const err = await ask({ delivery: 'streamed', model: 'gemini-2.5-pro', grounding: true }, pieces).then(
      () => null,
      (e: unknown) => e as SearchError,
    );
    expect(err).toBeInstanceOf(SearchError);
    expect(pieces).toHaveLength(3);
    expect(pieces[0]?.startsWith('### Weather in San Francisco is Mild and Partly Cloudy Today')).toBe(true);
    // The third piece's usageMetadata: 17 prompt + 102 tool-use tokens, 93 candidates, 412 thoughts; no query yet.
    expect(err?.usedBeforeFailure?.usage).toMatchObject(usage(119, 93, 412, 0));
    const spent = err?.usedBeforeFailure;
    expect(estimateCost(table, spent?.model ?? '', spent!.usage, day, spent?.tier)).toBeCloseTo(cost(1.25, 10, 119, 505), 10);
  });

  it("a 429's retryDelay (34.4 s) is kept, rounded up, and a timer run's retry waits at least that long", async () => {
    replay.queue(recordedReplies('vercel-ai--google-429-retry-info.json')[0]!);
    const err = await ask({ delivery: 'whole', model: 'gemini-2.5-flash' }).then(
      () => null,
      (e: unknown) => e as SearchError,
    );
    expect(err?.retryAfterSeconds).toBe(35);
    expect(timerBackoffStrategy(1, TIMER_BACKOFF, err ?? undefined)).toBe(35_000);
    // Later attempts back off further than Gemini asked: 60 s, then 120 s.
    expect(timerBackoffStrategy(2, TIMER_BACKOFF, err ?? undefined)).toBe(60_000);
    expect(timerBackoffStrategy(1, TIMER_BACKOFF, new Error('other'))).toBe(30_000);
  });

  it('a model that refuses the thinking level (a recorded 400) is asked again without it, and answers', async () => {
    replay.queue(recordedReplies('vercel-ai--google-thinking-level-minimal-unsupported.json')[0]!);
    replay.queue(recordedReplies('vercel-ai--google-thinking-level-low-success.json')[0]!);
    const sent = replay.received.length;
    const got = await askGemini(replay.gemini, {
      model: 'gemini-3.7-flash',
      delivery: 'whole',
      thinking: 'minimal',
      prompt: 'QUESTION: recorded',
      grounding: false,
      onText: () => {},
    });
    expect(got.answer).toBe('OK');
    const [refused, retried] = replay.received.slice(sent);
    expect((refused?.body.generationConfig as { thinkingConfig?: unknown })?.thinkingConfig).toBeDefined();
    expect((retried?.body.generationConfig as { thinkingConfig?: unknown } | undefined)?.thinkingConfig).toBeUndefined();
  });
});
