import { ApiError } from '@google/genai';
import { SearchError } from './errors';

/** Maps anything the Gemini client throws to a SearchError with a sentence the user can act on. */
export function geminiFailure(err: unknown, signal?: AbortSignal): SearchError {
  if (err instanceof SearchError) return err;
  if (signal?.aborted || (err instanceof Error && err.name === 'AbortError')) {
    return new SearchError('aborted', 'The search was cancelled before it finished.', 503, true, { cause: err });
  }
  if (err instanceof ApiError) {
    if (err.status === 429) {
      return new SearchError(
        'upstream_busy',
        'The AI service is handling too many requests right now. Please try again in a minute.',
        429,
        true,
        { cause: err },
      );
    }
    if (err.status === 503) {
      return new SearchError(
        'upstream_unavailable',
        'The AI service is temporarily unavailable. Please try again in a few minutes.',
        503,
        true,
        { cause: err },
      );
    }
    if (err.status >= 500) {
      return new SearchError('upstream_failed', 'The AI service failed while answering. Please try again in a moment.', 502, true, {
        cause: err,
      });
    }
    // 400/401/403/404: our request or key was refused; retrying the same request cannot help.
    return new SearchError(
      'upstream_rejected',
      'The AI service refused the request. Please try again later, and contact support if this keeps happening.',
      502,
      false,
      { cause: err },
    );
  }
  // fetch failed, connection reset, DNS: a network problem between us and the AI service.
  return new SearchError('upstream_unavailable', 'We could not reach the AI service. Please try again in a moment.', 503, true, {
    cause: err,
  });
}

// Finish reasons that mean the answer was withheld or cut for policy reasons.
const BLOCKED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'LANGUAGE']);

/** A SearchError for a blocked prompt or a finish reason that withheld the answer, else null. */
export function blockedFailure(blockReason: string | undefined, finishReason: string | undefined): SearchError | null {
  if (blockReason || (finishReason && BLOCKED.has(finishReason))) {
    return new SearchError('blocked', 'The AI service declined to answer this question. Please rephrase it and try again.', 400, false);
  }
  return null;
}

export const emptyAnswer = () =>
  new SearchError('empty', 'The AI service returned an empty answer. Please try again or rephrase your question.', 502, true);
