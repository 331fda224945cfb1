import { ApiError } from '@google/genai';
import { SearchError } from '../search-error';
import { ReplyRefused } from './fetch';

/** Maps anything the Gemini client throws to a SearchError with a sentence the user can act on. */
export function geminiFailure(err: unknown, signal?: AbortSignal): SearchError {
  if (err instanceof SearchError) return err;
  if (err instanceof ReplyRefused) return overLimit(err);
  if (signal?.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError') {
    return new SearchError('upstream_timeout', 'The AI service took too long to answer. Please try again in a few minutes.', true, {
      cause: err,
    });
  }
  if (signal?.aborted || (err instanceof Error && err.name === 'AbortError')) {
    return new SearchError('aborted', 'The search was cancelled before it finished.', true, { cause: err });
  }
  if (err instanceof ApiError) {
    if (err.status === 429) {
      const busy = new SearchError(
        'upstream_busy',
        'The AI service is handling too many requests right now. Please try again in a minute.',
        true,
        { cause: err },
      );
      busy.retryAfterSeconds = retryDelaySeconds(err);
      return busy;
    }
    if (err.status === 503) {
      return new SearchError(
        'upstream_unavailable',
        'The AI service is temporarily unavailable. Please try again in a few minutes.',
        true,
        { cause: err },
      );
    }
    if (err.status >= 500) {
      return new SearchError('upstream_failed', 'The AI service failed while answering. Please try again in a moment.', true, {
        cause: err,
      });
    }
    // 400/401/403/404: our request or key was refused; retrying the same request cannot help.
    return new SearchError(
      'upstream_rejected',
      'The AI service refused the request. Please try again later, and contact support if this keeps happening.',
      false,
      { cause: err },
    );
  }
  // fetch failed, connection reset, DNS: a network problem between us and the AI service.
  return new SearchError('upstream_unavailable', 'We could not reach the AI service. Please try again in a moment.', true, {
    cause: err,
  });
}

/**
 * A reply refused for what it carried (core/gemini/fetch.ts, the grounding caps in answer.ts): the search fails
 * and is not charged (core/search/charged-search.ts), whether or not some of its text was shown.
 */
export const overLimit = (err: ReplyRefused) =>
  new SearchError(
    'upstream_over_limit',
    `The AI service sent a reply we do not accept (${err.what}). It was not counted against your plan. Please try again in a moment.`,
    true,
    { cause: err },
  );

// Finish reasons that mean the answer was withheld or cut for policy reasons.
const BLOCKED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'LANGUAGE']);

/** A SearchError for a blocked prompt or a finish reason that withheld the answer, else null. */
export function blockedFailure(blockReason: string | undefined, finishReason: string | undefined): SearchError | null {
  if (blockReason || (finishReason && BLOCKED.has(finishReason))) {
    return new SearchError('blocked', 'The AI service declined to answer this question. Please rephrase it and try again.', false);
  }
  return null;
}

export const emptyAnswer = () =>
  new SearchError('empty', 'The AI service returned an empty answer. Please try again or rephrase your question.', true);

/** A reply that reached the model's output limit (MAX_TOKENS) before any answer text: asking again the same way cannot help. */
export const cutBeforeAnswer = () =>
  new SearchError('cut_short', 'The AI service reached its length limit before writing an answer. Please ask a narrower question.', false);

// A retryDelay is a protobuf Duration in JSON ("34.428s"); anything longer than an hour is not a wait we keep.
const MAX_RETRY_DELAY_S = 3600;

/**
 * The wait a 429 asks for: google.rpc.RetryInfo's `retryDelay` among the error's details, in whole seconds
 * (rounded up, so a retry never comes early); null when the reply names none.
 */
export function retryDelaySeconds(err: unknown): number | null {
  if (!(err instanceof ApiError)) return null;
  let details: unknown;
  try {
    details = (JSON.parse(err.message) as { error?: { details?: unknown } }).error?.details;
  } catch {
    return null;
  }
  if (!Array.isArray(details)) return null;
  for (const d of details as { '@type'?: unknown; retryDelay?: unknown }[]) {
    if (typeof d?.['@type'] !== 'string' || !d['@type'].endsWith('google.rpc.RetryInfo')) continue;
    const m = typeof d.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay) : null;
    if (!m) return null;
    return Math.min(MAX_RETRY_DELAY_S, Math.max(1, Math.ceil(Number(m[1]))));
  }
  return null;
}

/** What Google said in an ApiError's body (`{error: {code, message, status, details}}`), when it is JSON. */
export function apiErrorBody(err: unknown): { status: string; message: string; reason: string } | null {
  if (!(err instanceof ApiError)) return null;
  try {
    const body = JSON.parse(err.message) as {
      error?: { message?: unknown; status?: unknown; details?: { reason?: unknown }[] };
    };
    const e = body.error;
    if (!e) return null;
    const reason = (e.details ?? []).map((d) => d?.reason).find((r): r is string => typeof r === 'string') ?? '';
    return { status: String(e.status ?? ''), message: String(e.message ?? ''), reason };
  } catch {
    return null;
  }
}

/**
 * A 400 INVALID_ARGUMENT about the thinking settings ("Thinking level MINIMAL is not supported for this model",
 * "Budget 0 is invalid", "You can only set only one of thinking budget and thinking level", an unknown level):
 * the one refusal a request without thinking settings can cure.
 */
export function isThinkingRefusal(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 400) return false;
  const body = apiErrorBody(err);
  return body !== null && body.status === 'INVALID_ARGUMENT' && /thinking|budget/i.test(body.message);
}

/**
 * A refusal that no retry and no user can fix, only the operator: the model name, the key, or a request this
 * model does not take. Returns the sentence for the operator's log (what to change) and what it is about (the
 * same problem seen by different calls has the same `about`), or null for anything else.
 */
export function configurationProblem(err: unknown, model: string): { about: string; problem: string } | null {
  if (!(err instanceof ApiError)) return null;
  const body = apiErrorBody(err);
  const said = body?.message ? ` Gemini said: "${body.message}"` : '';
  if (err.status === 404) {
    return {
      about: `model:${model}`,
      problem: `GEMINI_MODEL=${model} is not a model this Gemini API key can use (404 NOT_FOUND). Set GEMINI_MODEL to a model listed by GET /v1beta/models, e.g. gemini-flash-lite-latest.${said}`,
    };
  }
  if (err.status === 401 || err.status === 403 || body?.reason === 'API_KEY_INVALID' || /api key/i.test(body?.message ?? '')) {
    return {
      about: 'key',
      problem: `Gemini refused GEMINI_API_KEY (${err.status} ${body?.status ?? ''}). Set GEMINI_API_KEY to a valid key from Google AI Studio.${said}`,
    };
  }
  if (err.status === 400) {
    return {
      about: `request:${model}:${body?.message ?? ''}`,
      problem: `Gemini model ${model} refused our request (400 ${body?.status ?? ''}); every search with this model will fail. Set GEMINI_MODEL to another model, or GEMINI_THINKING=off if the refusal is about thinking.${said}`,
    };
  }
  return null;
}
