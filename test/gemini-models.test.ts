import { GoogleGenAI } from '@google/genai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGeminiModel, setGeminiLogger } from '../core/gemini/model';
import { createTimer } from '../core/timers/lifecycle';
import { listRuns, type TimerRun } from '../db/timer-runs';
import { searchWithEvents } from './support/search-events';
import { ask } from './support/ask';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';
import { enqueueScheduledFire } from './support/runs';

const daily = dailyTimer();

/** A logger whose lines the test can read. */
function capturingLogger() {
  const lines: { level: number; msg: string; model?: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

async function searchOnce(stack: TestStack) {
  const { cookie } = await createSignedInUser(stack.db.sql);
  const res = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '', timezone: 'Europe/Berlin' });
  const text = await res.text();
  // The events are extracted after the reply: the search is done once they are.
  if (res.ok) await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie });
  return { status: res.status, text };
}

/** One timer fire through the real queue and worker, to its finished run. */
async function timerRunOnce(stack: TestStack, at: number): Promise<TimerRun> {
  const { user } = await createSignedInUser(stack.db.sql);
  const created = await createTimer(stack.deps, user.id, daily);
  if (!created.ok) throw new Error('timer not created');
  const id = created.timer.id;
  await enqueueScheduledFire(stack.deps.timersQueue, id, at, { attempts: 1 });
  return until('the run to finish', async () => (await listRuns(stack.db.sql, id)).find((r) => r.status !== 'running'), 20_000);
}

/** Each family against the stricter stand-in: its settings are accepted the first time, for a search and a timer run. */
describe.each([
  ['gemini-3.5-flash', { thinkingLevel: 'MINIMAL' }],
  ['gemini-3.1-pro-preview', { thinkingLevel: 'LOW' }],
  ['gemini-2.5-pro', undefined],
  ['gemini-2.5-flash', { thinkingBudget: 0 }],
  ['gemini-flash-latest', { thinkingLevel: 'LOW' }],
  ['gemini-3.5-flash-lite', { thinkingLevel: 'MINIMAL' }],
  // The default: Google's newest Flash-Lite, at the level every 3.x Flash-Lite accepts.
  ['gemini-flash-lite-latest', { thinkingLevel: 'MINIMAL' }],
])('GEMINI_MODEL=%s', (model, thinkingConfig) => {
  let stack: TestStack;
  beforeAll(async () => {
    // Every call on the one model, the extraction included, so each of its calls is seen.
    stack = await startTestStack({ env: { GEMINI_MODEL: model, GEMINI_EXTRACTION_MODEL: 'answer' }, worker: true });
    stack.standins.gemini.setChunkDelay(0);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers a search and a timer run with its thinking settings, none refused', async () => {
    const gemini = stack.standins.gemini;
    const search = await searchOnce(stack);
    expect(search.status).toBe(200);
    expect(search.text).toContain('AI Summit Berlin');
    expect(gemini.lastRequest!.model).toBe(model);
    expect(gemini.lastRequest!.body.generationConfig?.thinkingConfig).toEqual(thinkingConfig);

    const run = await timerRunOnce(stack, Date.UTC(2026, 3, 1, 7));
    expect(run).toMatchObject({ status: 'succeeded', creditTaken: true });
    expect(run.answer).toContain('AI Summit Berlin');
    expect(gemini.lastRequest!.body.generationConfig?.thinkingConfig).toEqual(thinkingConfig);
    expect(gemini.state.refusedRequests).toBe(0);
  });

  it('would have been refused with the old fixed zero budget, except on 2.5 Flash', async () => {
    const client = new GoogleGenAI({ apiKey: stack.config.gemini.apiKey, httpOptions: { baseUrl: stack.standins.url } });
    const old = client.models.generateContent({ model, contents: 'QUESTION: AI', config: { thinkingConfig: { thinkingBudget: 0 } } });
    if (model === 'gemini-2.5-flash') await expect(old).resolves.toBeTruthy();
    else await expect(old).rejects.toMatchObject({ status: 400 });
  });
});

describe('a model that refuses its thinking settings', () => {
  let stack: TestStack;
  const log = capturingLogger();
  beforeAll(async () => {
    stack = await startTestStack({ env: { GEMINI_MODEL: 'gemini-3.5-flash', GEMINI_EXTRACTION_MODEL: 'answer' }, worker: true });
    stack.standins.gemini.setChunkDelay(0);
    setGeminiLogger(stack.deps.gemini, log.logger);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is retried once without them, remembered, and logged once with the model and what to change', async () => {
    const gemini = stack.standins.gemini;
    // Google changed the model under its name: minimal, which the table sends, is refused from now on.
    gemini.models.change('gemini-3.5-flash', { levels: ['LOW', 'MEDIUM', 'HIGH'] });
    const before = gemini.state.requests;

    const first = await searchOnce(stack);
    expect(first.status).toBe(200);
    expect(first.text).toContain('AI Summit Berlin');
    expect(gemini.state.refusedRequests).toBe(1);
    // The refused answer request, its retry, and the event extraction after the answer (also without them).
    expect(gemini.state.requests - before).toBe(3);
    expect(gemini.lastRequest!.body.generationConfig?.thinkingConfig).toBeUndefined();

    // Remembered: the next search and a timer run go without thinking settings at once.
    expect((await searchOnce(stack)).status).toBe(200);
    expect((await timerRunOnce(stack, Date.UTC(2026, 3, 2, 7))).status).toBe('succeeded');
    expect(gemini.state.refusedRequests).toBe(1);
    // Each search is an answer and an event extraction; the timer run on a Gemini 3 model asks for both at once
    // (docs/decisions/gemini-and-cost.md).
    expect(gemini.state.requests - before).toBe(6);

    const warnings = log.lines.filter((l) => /refused the thinking settings/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, model: 'gemini-3.5-flash' });
    expect(warnings[0]!.msg).toMatch(/GEMINI_THINKING/);
  });
});

describe('GEMINI_THINKING set to a level the model refuses', () => {
  let stack: TestStack;
  const log = capturingLogger();
  beforeAll(async () => {
    // The newest Flash (3.8) refuses minimal, which the default Flash-Lite takes.
    stack = await startTestStack({ env: { GEMINI_MODEL: 'gemini-flash-latest', GEMINI_THINKING: 'minimal' } });
    stack.standins.gemini.setChunkDelay(0);
    setGeminiLogger(stack.deps.gemini, log.logger);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers anyway and tells the operator to change GEMINI_THINKING, once', async () => {
    for (let i = 0; i < 2; i++) expect((await searchOnce(stack)).status).toBe(200);
    expect(stack.standins.gemini.state.refusedRequests).toBe(1);
    const warnings = log.lines.filter((l) => /refused GEMINI_THINKING=minimal/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ model: 'gemini-flash-latest' });
  });
});

describe('the extraction call on its own model (GEMINI_EXTRACTION_MODEL)', () => {
  let stack: TestStack;
  const log = capturingLogger();
  beforeAll(async () => {
    stack = await startTestStack({ env: { GEMINI_THINKING: 'low' } });
    stack.standins.gemini.setChunkDelay(0);
    setGeminiLogger(stack.deps.gemini, log.logger);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("asks Gemini 2.5 Flash-Lite by default, with that family's own thinking settings, not GEMINI_THINKING", async () => {
    const before = stack.standins.gemini.state.requests;
    expect((await searchOnce(stack)).status).toBe(200);
    expect(stack.standins.gemini.state.requests - before).toBe(2);
    // The last request is the extraction, made by the worker after the reply.
    const last = stack.standins.gemini.lastRequest!;
    expect(last.model).toBe('gemini-2.5-flash-lite');
    expect(last.body.generationConfig?.thinkingConfig).toEqual({ thinkingBudget: 0 });
    expect(stack.standins.gemini.state.refusedRequests).toBe(0);
  });

  it("falls back to the answer's model when the key cannot use it, tells the operator once, and keeps the events", async () => {
    const config = { ...stack.config, gemini: { ...stack.config.gemini, extractionModel: 'gemini-9-flash-lite' } };
    const { collectEvents } = await import('../core/events/collect');
    for (let i = 0; i < 2; i++) {
      const events = await collectEvents(
        { gemini: stack.deps.gemini },
        {
          settings: { model: 'gemini-flash-latest', thinking: config.gemini.thinking },
          extractionModel: config.gemini.extractionModel,
          prompt: 'QUESTION: AI conferences in Berlin',
          answer: 'The AI conferences in Berlin next month, with their dates and links.',
          sources: [],
          website: null,
          userTimezone: 'Europe/Berlin',
        },
      );
      expect(events.length).toBeGreaterThan(0);
      expect(stack.standins.gemini.lastRequest!.model).toBe('gemini-flash-latest');
    }
    const warnings = log.lines.filter((l) => /GEMINI_EXTRACTION_MODEL=gemini-9-flash-lite/.test(l.msg));
    expect(warnings).toHaveLength(1);
    // The answer's model is fine: /readyz does not blame GEMINI_MODEL for the extraction model.
    const body = (await (await fetch(`${stack.url}/readyz`)).json()) as { warnings: string[] };
    expect(body.warnings.filter((w) => /gemini/.test(w))).toEqual([]);
  });

  it('asks the answer’s model for one answer the extraction model refused without naming itself, and not from then on', async () => {
    const { collectEvents } = await import('../core/events/collect');
    const extract = () =>
      collectEvents(
        { gemini: stack.deps.gemini },
        {
          settings: { model: 'gemini-flash-latest', thinking: stack.config.gemini.thinking },
          extractionModel: stack.config.gemini.extractionModel,
          prompt: 'QUESTION: AI conferences in Berlin',
          answer: 'The AI conferences in Berlin next month, with their dates and links.',
          sources: [],
          website: null,
          userTimezone: 'Europe/Berlin',
        },
      );
    const warnedBefore = log.lines.filter((l) => /GEMINI_EXTRACTION_MODEL/.test(l.msg)).length;
    // Google's generic "Request contains an invalid argument.": about this request, not about the model.
    stack.standins.gemini.failNext({ when: 'before', status: 400 });
    expect((await extract()).length).toBeGreaterThan(0);
    expect(stack.standins.gemini.lastRequest!.model).toBe('gemini-flash-latest');
    expect((await extract()).length).toBeGreaterThan(0);
    expect(stack.standins.gemini.lastRequest!.model).toBe('gemini-2.5-flash-lite');
    expect(log.lines.filter((l) => /GEMINI_EXTRACTION_MODEL/.test(l.msg))).toHaveLength(warnedBefore);
  });
});

describe('a Gemini model or key that cannot be used', () => {
  let stack: TestStack;
  const log = capturingLogger();
  beforeAll(async () => {
    stack = await startTestStack({ env: { GEMINI_MODEL: 'gemini-9-flash' } });
    setGeminiLogger(stack.deps.gemini, log.logger);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is found by the start-up check and reported by /readyz, which stays 200', async () => {
    const before = stack.standins.gemini.state.modelLookups;
    expect(await checkGeminiModel(stack.deps.gemini, stack.config.gemini)).toMatchObject({ state: 'unusable' });
    expect(stack.standins.gemini.state.modelLookups - before).toBe(1);
    const res = await fetch(`${stack.url}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; warnings: string[] };
    expect(body.status).toBe('ready');
    expect(body.warnings).toEqual([expect.stringMatching(/^gemini: GEMINI_MODEL=gemini-9-flash is not a model/)]);
  });

  it('shows the user a sentence, not the provider refusal, and logs the operator error once', async () => {
    for (let i = 0; i < 2; i++) {
      const search = await searchOnce(stack);
      expect(search.status).toBe(502);
      expect(search.text).toBe('The AI service refused the request. Please try again later, and contact support if this keeps happening.');
    }
    expect(log.lines.filter((l) => l.level === 50 && /Set GEMINI_MODEL/.test(l.msg))).toHaveLength(1);
  });

  it('reports a refused key the same way', async () => {
    stack.standins.gemini.revokeKey(stack.config.gemini.apiKey);
    const health = await checkGeminiModel(stack.deps.gemini, { ...stack.config.gemini, model: 'gemini-3.5-flash' });
    expect(health).toMatchObject({ state: 'unusable', problem: expect.stringMatching(/Set GEMINI_API_KEY/) });
    const body = (await (await fetch(`${stack.url}/readyz`)).json()) as { warnings: string[] };
    expect(body.warnings[0]).toMatch(/GEMINI_API_KEY/);
    expect(JSON.stringify(log.lines)).not.toContain(stack.config.gemini.apiKey);
  });
});
