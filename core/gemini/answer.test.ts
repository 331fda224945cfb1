import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGemini } from '../clients';
import { loadConfig } from '../config';
import type { GeminiFailure } from '../../dev/standins/gemini';
import { useGeminiStandin } from '../../dev/harness/gemini-standin-client';
import { type AnswerDelivery, askGemini, GROUNDING_LIMITS } from './answer';
import { SearchError } from '../search-error';

/** One answer asked for streamed (an ask) and whole (a timer run), through the official client and the stand-in. */
describe('askGemini, streamed and whole', () => {
  const served = useGeminiStandin({ chunkDelayMs: 0 });
  const { standin } = served;

  const deliveries: AnswerDelivery[] = ['streamed', 'whole'];

  async function answer(delivery: AnswerDelivery, pieces: string[] = []) {
    const outcome = await askGemini(served.gemini, {
      model: 'gemini-flash-latest',
      delivery,
      prompt: 'QUESTION: AI conferences in Berlin',
      grounding: true,
      onText: (text) => {
        pieces.push(text);
      },
    });
    return { outcome, pieces, method: standin.state.lastAnswerRequest?.method };
  }

  it('the same answer, tokens and sources either way; a whole answer comes in one piece', async () => {
    const streamed = await answer('streamed');
    const whole = await answer('whole');
    expect(streamed.method).toBe('streamGenerateContent');
    expect(whole.method).toBe('generateContent');
    expect(whole.outcome).toEqual(streamed.outcome);
    expect(whole.outcome.sources.length).toBeGreaterThan(0);
    expect(whole.outcome.answer).toContain('Sources:');
    expect(streamed.pieces.length).toBeGreaterThan(2);
    // The answer, then its sources block.
    expect(whole.pieces).toHaveLength(2);
    expect(whole.pieces.join('')).toBe(whole.outcome.answer);
  });

  const failures: { name: string; failure: GeminiFailure; code: string }[] = [
    { name: 'refused before any text', failure: { when: 'before', status: 429 }, code: 'upstream_busy' },
    { name: 'a blocked prompt', failure: { when: 'prompt', blockReason: 'SAFETY' }, code: 'blocked' },
    { name: 'an empty answer', failure: { when: 'empty' }, code: 'empty' },
  ];
  for (const { name, failure, code } of failures) {
    for (const delivery of deliveries) {
      it(`${name}, ${delivery}: SearchError ${code}, no text delivered`, async () => {
        standin.failNext(failure);
        const pieces: string[] = [];
        const err = await answer(delivery, pieces).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(SearchError);
        expect((err as SearchError).code).toBe(code);
        expect(pieces).toEqual([]);
      });
    }
  }

  it('an answer that breaks while being written: a stream has delivered some text, a whole answer none', async () => {
    const delivered: Record<AnswerDelivery, string[]> = { streamed: [], whole: [] };
    for (const delivery of deliveries) {
      standin.failNext({ when: 'after', status: 500 });
      const err = await answer(delivery, delivered[delivery]).then(
        () => null,
        (e: unknown) => e,
      );
      expect((err as SearchError).code).toBe('upstream_failed');
    }
    expect(delivered.streamed.length).toBe(2);
    expect(delivered.whole).toEqual([]);
  });

  it('a whole answer waits for the time the model takes to write it, and the client can leave meanwhile', async () => {
    standin.setChunkDelay(60_000);
    const leave = new AbortController();
    const requests = standin.state.requests;
    const aborted = standin.state.abortedRequests;
    const pieces: string[] = [];
    const pending = askGemini(served.gemini, {
      model: 'gemini-flash-latest',
      delivery: 'whole',
      prompt: 'QUESTION: AI conferences in Berlin',
      grounding: true,
      signal: leave.signal,
      onText: (text) => {
        pieces.push(text);
      },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    await expect.poll(() => standin.state.requests).toBe(requests + 1);
    leave.abort();
    expect(((await pending) as SearchError).code).toBe('aborted');
    expect(pieces).toEqual([]);
    await expect.poll(() => standin.state.abortedRequests).toBe(aborted + 1);
  });
});

/** What a call used, read from Gemini's reply through the official client, and the tier it ran on. */
describe('askGemini usage and service tier', () => {
  const served = useGeminiStandin({ chunkDelayMs: 0 });
  const { standin } = served;

  const ask = (model: string, delivery: AnswerDelivery, tier?: 'flex' | 'standard', grounding = true) =>
    askGemini(served.gemini, { model, delivery, tier, prompt: 'QUESTION: AI conferences in Berlin', grounding, onText: () => {} });

  it('counts tokens as Google bills them and each search query the model ran', async () => {
    for (const delivery of ['streamed', 'whole'] as const) {
      const { usage, answeredBy } = await ask('gemini-flash-latest', delivery);
      expect(answeredBy).toBe('gemini-3.8-flash');
      expect(usage.calls).toBe(1);
      expect(usage.groundingQueries).toBe(2);
      expect(usage.thinkingTokens).toBeGreaterThan(0);
      expect(usage.outputTokens).toBeGreaterThan(0);
      // The prompt plus the search results the model read (tool-use prompt tokens).
      expect(usage.promptTokens).toBeGreaterThan(1000);
    }
    const ungrounded = await ask('gemini-flash-latest', 'whole', 'standard', false);
    expect(ungrounded.usage.groundingQueries).toBe(0);
    expect(ungrounded.usage.groundedCalls).toBe(0);
  });

  it('asks a whole answer on Flex when told, and says so', async () => {
    const outcome = await ask('gemini-3.5-flash', 'whole', 'flex');
    expect(standin.state.lastAnswerRequest?.body.serviceTier).toBe('flex');
    expect(outcome.tier).toBe('flex');
  });

  it('never asks Gemini 2.5, which has no Flex, on the Flex tier', async () => {
    const refusedBefore = standin.state.refusedRequests;
    const outcome = await ask('gemini-2.5-flash', 'whole', 'flex');
    expect(standin.state.refusedRequests).toBe(refusedBefore);
    expect(standin.state.lastAnswerRequest?.body.serviceTier).toBeUndefined();
    expect(outcome.tier).toBe('standard');
  });

  it('asks again on the standard tier when a model refuses Flex, and from then on asks it there', async () => {
    standin.models.change('gemini-3.6-flash', { flex: false });
    const refusedBefore = standin.state.refusedRequests;
    const outcome = await ask('gemini-3.6-flash', 'whole', 'flex');
    expect(standin.state.refusedRequests).toBe(refusedBefore + 1);
    expect(standin.state.lastAnswerRequest?.body.serviceTier).toBeUndefined();
    expect(outcome.tier).toBe('standard');
    expect(outcome.answer.length).toBeGreaterThan(0);
    await ask('gemini-3.6-flash', 'whole', 'flex');
    expect(standin.state.refusedRequests).toBe(refusedBefore + 1);
  });

  it('asks again on the standard tier when Flex has no capacity (429)', async () => {
    standin.failNext({ when: 'before', status: 429 });
    const outcome = await ask('gemini-3.5-flash', 'whole', 'flex');
    expect(outcome.tier).toBe('standard');
  });
});

/** The grounding metadata of one reply, from a loopback Gemini of the test's own: read within limits, in linear time. */
describe('askGemini, grounding metadata held to limits', () => {
  let reply = '';
  const server = createServer((req, res) => {
    req.resume();
    if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    res.on('close', () => closed++);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // A refused reply's connection stays open after its one message: only the reader ends it.
    if (refused) res.write(reply);
    else res.end(reply);
  });
  let closed = 0;
  let refused = false;
  let gemini: GoogleGenAI;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    gemini = createGemini(loadConfig({ GEMINI_API_KEY: 'test-key', GEMINI_BASE_URL: url, LOG_LEVEL: 'silent' }));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** One streamed message citing `sources` pages, with `supports` supports each naming every page. */
  function groundedReply(sources: number, supports: number): string {
    const groundingChunks = Array.from({ length: sources }, (_, i) => ({ web: { uri: `https://example.org/${i}`, title: 'example.org' } }));
    const indices = Array.from({ length: Math.min(sources, 3) }, (_, i) => i);
    const groundingSupports = Array.from({ length: supports }, (_, i) => ({
      segment: { text: `line ${i}` },
      groundingChunkIndices: indices,
    }));
    const message = {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Here are events.' }] },
          finishReason: 'STOP',
          groundingMetadata: { groundingChunks, groundingSupports },
        },
      ],
    };
    return `data: ${JSON.stringify(message)}\r\n\r\n`;
  }

  const answer = () =>
    askGemini(gemini, {
      model: 'gemini-flash-latest',
      delivery: 'streamed',
      prompt: 'QUESTION: events',
      grounding: true,
      onText: () => {},
    });

  it('keeps every support of a reply within the limits, each source with its segments in order', async () => {
    reply = groundedReply(GROUNDING_LIMITS.chunks, GROUNDING_LIMITS.supports);
    const { sources } = await answer();
    expect(sources).toHaveLength(GROUNDING_LIMITS.chunks);
    expect(sources[0]!.segments).toHaveLength(GROUNDING_LIMITS.supports);
    expect(sources[2]!.segments!.slice(0, 2)).toEqual(['line 0', 'line 1']);
    expect(sources[3]!.segments).toBeUndefined();
  });

  for (const [what, sources, supports, said] of [
    ['supports', 1, GROUNDING_LIMITS.supports + 1, `over ${GROUNDING_LIMITS.supports} grounding supports`],
    ['sources', GROUNDING_LIMITS.chunks + 1, 1, `over ${GROUNDING_LIMITS.chunks} grounding sources`],
  ] as const) {
    it(`refuses a reply with more grounding ${what} than that: the search fails with a sentence`, async () => {
      reply = groundedReply(sources, supports);
      refused = true;
      const before = closed;
      const err = await answer().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SearchError);
      expect((err as SearchError).code).toBe('upstream_over_limit');
      expect((err as SearchError).message).toBe(
        `The AI service sent a reply we do not accept (${said}). It was not counted against your plan. Please try again in a moment.`,
      );
      // The rest of the reply is not waited for.
      await expect.poll(() => closed).toBeGreaterThan(before);
    });
  }
});
