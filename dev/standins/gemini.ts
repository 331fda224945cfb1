import { Hono, type Context } from 'hono';
import { stream } from 'hono/streaming';
import { DESCRIBE_MARKER } from '../../core/timers/describe/model-describe';
import { answerFor, answerWithEventsFor, chunksOf, extractionFor } from './gemini-answer';
import { describeFor } from './gemini-describe';
import { createModelRegistry, refusalFor } from './gemini-models';
import { searchEntryPointFor, searchQueriesFor, usageFor } from './gemini-usage';
import { groundedSitesApp } from './grounded-sites';
import { sitesApp, sitesIndex } from './sites';

export type GeminiFailure =
  /**
   * 'before': the request is refused with an error status; 'after': the stream breaks after two chunks (a whole
   * answer, `generateContent`, fails with the status after the model's time instead).
   */
  | { when: 'before' | 'after'; status: 400 | 403 | 429 | 500 | 503 }
  /** 'prompt': the prompt is blocked (promptFeedback.blockReason, no candidates), as Gemini's safety filter does. */
  | { when: 'prompt'; blockReason: 'SAFETY' | 'BLOCKLIST' | 'PROHIBITED_CONTENT' }
  /** 'empty': the stream (or the whole answer) ends with finishReason STOP and no text. */
  | { when: 'empty' }
  /**
   * 'max_tokens': the model reaches its output limit after `afterChunks` pieces of the answer (finishReason
   * MAX_TOKENS); 0: before any text, its thinking having used the budget, as real replies show.
   */
  | { when: 'max_tokens'; afterChunks: number };

/** An answer request held by `holdAnswers` until a test releases it: answered, or refused with `status`. */
export interface HeldAnswer {
  release(status?: 429 | 500 | 503): void;
}

export interface GeminiRequestRecord {
  model: string;
  method: string;
  apiKey: string | undefined;
  body: {
    contents?: { role?: string; parts?: { text?: string }[] }[];
    systemInstruction?: unknown;
    generationConfig?: Record<string, unknown>;
    tools?: unknown[];
    serviceTier?: string;
  };
  /** The user prompt text. */
  prompt: string;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};
const MESSAGES: Record<number, string> = {
  400: 'Request contains an invalid argument.',
  403: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  503: 'The model is overloaded. Please try again later.',
};

// A real 429 names the quota it hit and how long to wait (google.rpc.RetryInfo), as recorded by vercel/ai's
// google-429-retry-info.json fixture (test/fixtures/gemini-recorded).
const RETRY_DETAILS = [
  {
    '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
    violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel' }],
  },
  { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' },
];

const errorBody = (code: number) => ({
  error: {
    code,
    message: MESSAGES[code] ?? 'Error',
    status: STATUS_NAMES[code] ?? 'UNKNOWN',
    ...(code === 429 ? { details: RETRY_DETAILS } : {}),
  },
});

const KEY_INVALID = 'API key not valid. Please pass a valid API key.';
const keyInvalidBody = {
  error: {
    code: 400,
    message: KEY_INVALID,
    status: 'INVALID_ARGUMENT',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
      { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: KEY_INVALID },
    ],
  },
};

const notFoundBody = (model: string, method: string) => ({
  error: {
    code: 404,
    message: `models/${model} is not found for API version v1beta, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`,
    status: 'NOT_FOUND',
  },
});

/**
 * Gemini REST stand-in: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` (and `:generateContent`)
 * with `x-goog-api-key`, one `data: {GenerateContentResponse}` event per chunk, and `GET /v1beta/models/{model}`
 * (models.get). Knows the models of gemini-models.ts and refuses, per model, what the real API refuses (thinking
 * settings, structured output with tools on 2.5, unknown models, revoked keys) with the real error bodies.
 * Answers deterministically from the prompt (the events in its website facts, or a fixed grounded answer; JSON
 * events for a structured-output request), and serves sample event websites under /sites/.
 */
export function createGeminiStandin(options: { chunkDelayMs?: number; firstChunkDelayMs?: number } = {}) {
  let chunkDelayMs = options.chunkDelayMs ?? 40;
  // A model's time to first token; benchmarks set it to measure what our server adds on top.
  let firstChunkDelayMs = options.firstChunkDelayMs ?? 0;
  // Each injected failure with the kind of request it is for: an answer (streamed, whole, or with its events), an
  // events extraction, or whichever comes first.
  const failures: { failure: GeminiFailure; of: 'answer' | 'extraction' | 'any' }[] = [];
  const models = createModelRegistry();
  const revokedKeys = new Set<string>();
  // Answers a test scripts word for word (e.g. one that starts like an error message), used once each.
  const scripted: string[] = [];
  // While holding, answer requests wait here, oldest first, until a test releases each (a model that is slow
  // for as long as a test needs, say while a worker dies).
  let holding = false;
  const held: HeldAnswer[] = [];
  const state = {
    lastRequest: null as GeminiRequestRecord | null,
    /** The latest generate requests, oldest first (at most RECENT_REQUESTS): which calls a search made. */
    recentRequests: [] as GeminiRequestRecord[],
    /** The last answer request: streamed, whole, or whole with its events (an event extraction after it asks for JSON). */
    lastAnswerRequest: null as GeminiRequestRecord | null,
    requests: 0,
    /** Generate requests refused with 400 for what they asked of the model (thinking settings, tools). */
    refusedRequests: 0,
    /** models.get calls. */
    modelLookups: 0,
    /** Streams whose client went away before the answer was complete. */
    abortedRequests: 0,
    /** Time the last answer was complete (its stream's final chunk, or a whole answer), ms since epoch. */
    lastAnswerFinishedAt: 0,
    /** Paths of the sample pages requested (/sites/…), oldest first, at most 200. */
    siteReads: [] as string[],
  };

  const app = new Hono();
  // Which sample pages were read, by path, oldest first: what the event check fetched (and did not).
  app.use('/sites/*', async (c, next) => {
    state.siteReads.push(c.req.path);
    if (state.siteReads.length > 200) state.siteReads.shift();
    await next();
  });
  app.route('/', groundedSitesApp);
  app.route('/sites', sitesApp);
  app.get('/sites/', sitesIndex);
  /** The key check the real API does before anything else; null when the key is accepted. */
  const keyRefusal = (c: Context) => {
    const apiKey = c.req.header('x-goog-api-key');
    if (!apiKey) return c.json(errorBody(403), 403);
    if (revokedKeys.has(apiKey)) return c.json(keyInvalidBody, 400);
    return null;
  };
  app.get('/v1beta/models', (c) => keyRefusal(c) ?? c.json({ models: models.list() }));
  app.get('/v1beta/models/*', (c) => {
    const refused = keyRefusal(c);
    if (refused) return refused;
    const model = decodeURIComponent(c.req.path.slice('/v1beta/models/'.length));
    state.modelLookups++;
    const described = models.describe(model);
    return described ? c.json(described) : c.json(notFoundBody(model, 'get'), 404);
  });
  app.post('/v1beta/models/*', async (c) => {
    const tail = decodeURIComponent(c.req.path.slice('/v1beta/models/'.length));
    const [model, method] = tail.split(':');
    const apiKey = c.req.header('x-goog-api-key');
    const refusedKey = keyRefusal(c);
    if (refusedKey) return refusedKey;
    if (!model || (method !== 'streamGenerateContent' && method !== 'generateContent')) {
      return c.json({ error: { code: 404, message: `Method ${method} not found.`, status: 'NOT_FOUND' } }, 404);
    }
    const known = models.find(model);
    if (!known) return c.json(notFoundBody(model, method), 404);
    let body: GeminiRequestRecord['body'];
    try {
      body = await c.req.json();
    } catch {
      return c.json(errorBody(400), 400);
    }
    const prompt = (body.contents ?? []).flatMap((content) => (content.parts ?? []).map((p) => p.text ?? '')).join('\n');
    state.requests++;
    state.lastRequest = { model, method, apiKey, body, prompt };
    state.recentRequests.push(state.lastRequest);
    if (state.recentRequests.length > RECENT_REQUESTS) state.recentRequests.shift();
    const structured = body.generationConfig?.responseMimeType === 'application/json';
    // A structured request whose schema has an `answer` is an answer with its events (one call, docs/decisions/gemini-and-cost.md).
    const withAnswer = structured && hasAnswerProperty(body.generationConfig?.responseJsonSchema);
    const extraction = structured && !withAnswer;
    if (!extraction) state.lastAnswerRequest = state.lastRequest;
    // Checked before an injected failure is used up, so a test's failNext meets the request that gets through.
    const refused = refusalFor(known, body);
    if (refused) {
      state.refusedRequests++;
      return c.json(refused.body, refused.status);
    }
    const at = failures.findIndex((f) => f.of === 'any' || f.of === (extraction ? 'extraction' : 'answer'));
    const failure = at < 0 ? undefined : failures.splice(at, 1)[0]!.failure;
    if (failure?.when === 'before') return c.json(errorBody(failure.status), failure.status);
    if (holding && !extraction) {
      const status = await new Promise<429 | 500 | 503 | undefined>((release) => held.push({ release }));
      if (status) return c.json(errorBody(status), status);
    }

    // A scripted answer is the reply's text word for word (an answer with its events: the JSON), never an extraction's.
    const next = extraction ? undefined : scripted.shift();
    const origin = new URL(c.req.url).origin;
    const answer =
      next !== undefined
        ? { text: next, sources: [], supports: undefined }
        : extraction
          ? { text: JSON.stringify(prompt.startsWith(DESCRIBE_MARKER) ? describeFor(prompt) : extractionFor(prompt, origin)), sources: [] }
          : withAnswer
            ? answerWithEventsFor(prompt, origin)
            : answerFor(prompt, origin);
    const chunks = chunksOf(answer.text);
    const grounded = (body.tools ?? []).some((t) => typeof t === 'object' && t !== null && 'googleSearch' in t);
    const thinkingConfig = (body.generationConfig?.thinkingConfig ?? {}) as { thinkingBudget?: number };
    const queries = grounded ? searchQueriesFor(prompt, known.heedsFewSearches) : [];
    const call = { model: models.answeringModel(model), prompt, grounded, thinkingOff: thinkingConfig.thinkingBudget === 0, queries };
    const usage = (sent: string) => usageFor(call, sent);
    // What the model searched is reported once, with the answer's last piece, as Google's stream does.
    const grounding = {
      webSearchQueries: queries,
      groundingChunks: answer.sources.map((s) => ({ web: s })),
      ...(answer.supports ? { groundingSupports: answer.supports } : {}),
      searchEntryPoint: searchEntryPointFor(queries),
    };
    const responseOf = (text: string, last: boolean, sentSoFar: string, finishReason = 'STOP') => ({
      candidates: [
        {
          content: { role: 'model', parts: [{ text }] },
          index: 0,
          ...(last ? { finishReason } : {}),
          ...(last && grounded ? { groundingMetadata: grounding } : {}),
        },
      ],
      usageMetadata: { ...usage(sentSoFar), ...(body.serviceTier ? { serviceTier: body.serviceTier } : {}) },
      // Google names the model that answered: an alias's current target.
      modelVersion: models.answeringModel(model),
      responseId: `standin-${state.requests}`,
    });

    if (method === 'generateContent' && extraction) return c.json(responseOf(answer.text, true, answer.text));
    if (method === 'generateContent') {
      // The whole answer in one reply, after the time the model takes to write it all, as the real API does.
      // An answer with its events is written line by line too: its JSON carries the answer's lines escaped.
      const lines = withAnswer ? chunksOf(answer.text.replace(/\\n/g, '\n')).length : chunks.length;
      const writing = firstChunkDelayMs + chunkDelayMs * Math.max(0, lines - 1);
      if (writing > 0 && !(await sleepUnlessAborted(writing, c.req.raw.signal))) {
        state.abortedRequests++;
        return c.body(null); // nobody is there to read it
      }
      if (failure?.when === 'after') return c.json(errorBody(failure.status), failure.status);
      if (failure?.when === 'prompt')
        return c.json({ promptFeedback: { blockReason: failure.blockReason }, usageMetadata: usage(''), modelVersion: model });
      if (failure?.when === 'empty') return c.json(responseOf('', true, ''));
      if (failure?.when === 'max_tokens') {
        const cut = chunks.slice(0, failure.afterChunks).join('');
        return c.json(responseOf(cut, true, cut, 'MAX_TOKENS'));
      }
      state.lastAnswerFinishedAt = Date.now();
      return c.json(responseOf(answer.text, true, answer.text));
    }
    if (failure?.when === 'prompt') {
      return sse(
        c,
        (send) => send({ promptFeedback: { blockReason: failure.blockReason }, usageMetadata: usage(''), modelVersion: model }),
        () => {},
      );
    }
    if (failure?.when === 'empty') {
      return sse(
        c,
        (send) => send(responseOf('', true, '')),
        () => {},
      );
    }
    return sse(
      c,
      async (send, aborted) => {
        let sent = '';
        for (let i = 0; i < chunks.length; i++) {
          const delay = i === 0 ? firstChunkDelayMs : chunkDelayMs;
          if (delay > 0) await sleep(delay);
          if (aborted()) return;
          if (failure?.when === 'after' && i === 2) {
            await send(errorBody(failure.status));
            return;
          }
          if (failure?.when === 'max_tokens' && i === failure.afterChunks) {
            await send(responseOf('', true, sent, 'MAX_TOKENS'));
            return;
          }
          sent += chunks[i];
          await send(responseOf(chunks[i]!, i === chunks.length - 1, sent));
        }
        state.lastAnswerFinishedAt = Date.now();
      },
      () => {
        state.abortedRequests++;
      },
    );
  });

  return {
    app,
    state,
    get lastRequest() {
      return state.lastRequest;
    },
    /**
     * The next request fails: refused before any chunk, broken after two chunks, blocked, empty, or cut at MAX_TOKENS.
     * `of` names which request takes it: the next answer (an earlier search's events extraction, found by a Gemini call
     * of its own after its reply, passes it by), the next extraction, or whichever comes first (the default).
     */
    failNext(failure: GeminiFailure, of: 'answer' | 'extraction' | 'any' = 'any') {
      failures.push({ failure, of });
    },
    /** The next request is answered with exactly this text instead of the answer the prompt would get. */
    answerNext(text: string) {
      scripted.push(text);
    },
    /** From now on (or no longer, with false), answer requests wait in `held` until released; extractions do not. */
    holdAnswers(on = true) {
      holding = on;
    },
    /** The answer requests waiting, in the order they came. */
    held: held as readonly HeldAnswer[],
    setChunkDelay(ms: number) {
      chunkDelayMs = ms;
    },
    setFirstChunkDelay(ms: number) {
      firstChunkDelayMs = ms;
    },
    /** The models the stand-in knows; `change` makes one refuse differently (Google changed it under its name). */
    models,
    /** Requests with this key are refused as the real API refuses a deleted key (400 API_KEY_INVALID). */
    revokeKey(key: string) {
      revokedKeys.add(key);
    },
    reset() {
      // Whatever still waits is refused, so no request outlives the test that held it.
      holding = false;
      for (const h of held.splice(0)) h.release(503);
      failures.length = 0;
      scripted.length = 0;
      models.reset();
      state.siteReads.length = 0;
      revokedKeys.clear();
      chunkDelayMs = options.chunkDelayMs ?? 40;
      firstChunkDelayMs = options.firstChunkDelayMs ?? 0;
    },
  };
}

export type GeminiStandin = ReturnType<typeof createGeminiStandin>;

const RECENT_REQUESTS = 20;

const hasAnswerProperty = (schema: unknown) =>
  typeof schema === 'object' && schema !== null && 'answer' in ((schema as { properties?: object }).properties ?? {});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms`; false as soon as the client goes away. */
function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', gone);
      resolve(true);
    }, ms);
    const gone = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', gone, { once: true });
  });
}

/** A `text/event-stream` reply; counts a client that goes away before the stream ends. */
function sse(c: Context, body: (send: (json: unknown) => Promise<void>, aborted: () => boolean) => Promise<void>, onAbort: () => void) {
  c.header('content-type', 'text/event-stream');
  c.header('cache-control', 'no-cache');
  let gone = false;
  let done = false;
  const markGone = () => {
    if (gone || done) return;
    gone = true;
    onAbort();
  };
  c.req.raw.signal.addEventListener('abort', markGone);
  return stream(c, async (s) => {
    s.onAbort(markGone);
    await body(
      async (json) => {
        await s.write(`data: ${JSON.stringify(json)}\r\n\r\n`);
      },
      () => gone,
    );
    done = true;
  });
}
