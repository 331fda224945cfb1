import type { ChargedSearchOutcome } from '../../core/search/charged-search';
import type { ProblemCode } from '../../core/contract/problem';
import type { SearchErrorCode } from '../../core/search-error';
import { ApiError } from '../errors';

/** The HTTP status of each way a search fails: the user's input (400), a busy upstream (429), or ours/theirs (502/503). */
export const SEARCH_ERROR_STATUS: Readonly<Record<SearchErrorCode, 400 | 429 | 502 | 503>> = {
  website_refused: 400,
  website_failed: 502,
  upstream_busy: 429,
  upstream_failed: 502,
  upstream_unavailable: 503,
  upstream_timeout: 503,
  upstream_rejected: 502,
  upstream_over_limit: 502,
  blocked: 400,
  empty: 502,
  cut_short: 502,
  reading_busy: 503,
  aborted: 503,
};

/** The stable code /v1's problem details give each way a search fails (core/contract/problem.ts). */
const SEARCH_PROBLEM: Readonly<Record<SearchErrorCode, ProblemCode>> = {
  website_refused: 'website_refused',
  website_failed: 'upstream_failed',
  upstream_busy: 'gemini_busy',
  upstream_failed: 'gemini_failed',
  upstream_unavailable: 'gemini_unavailable',
  upstream_timeout: 'gemini_unavailable',
  upstream_rejected: 'gemini_failed',
  upstream_over_limit: 'gemini_failed',
  reading_busy: 'unavailable',
  blocked: 'blocked',
  empty: 'gemini_failed',
  cut_short: 'gemini_failed',
  aborted: 'unavailable',
};

/** The error reply of a search that ended before any answer text. */
export function refusal(outcome: ChargedSearchOutcome): ApiError {
  if (outcome.kind === 'failed') {
    const { code, message, retryAfterSeconds } = outcome.error;
    // A busy Gemini's own wait (its 429's retryDelay) is passed on, so a client retries when it may succeed.
    const headers: Record<string, string> = retryAfterSeconds === null ? {} : { 'retry-after': String(retryAfterSeconds) };
    return new ApiError(SEARCH_ERROR_STATUS[code], message, { headers, code: SEARCH_PROBLEM[code] });
  }
  if (outcome.kind === 'no_credits') return new ApiError(402, outcome.message);
  return new ApiError(500, 'Something went wrong on our side. Please try again in a moment.');
}

/** The user already has as many searches running as they may (SEARCH_CONCURRENCY_PER_USER). */
export const busy = (max: number) =>
  new ApiError(429, `You already have ${max} searches running. Please wait for one to finish, then try again.`, {
    headers: { 'retry-after': '5' },
    code: 'too_many_searches',
  });
