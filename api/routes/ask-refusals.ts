import type { ChargedSearchOutcome } from '../../core/search/charged-search';
import { ApiError } from '../errors';

/** The error reply of a search that ended before any answer text. */
export function refusal(outcome: ChargedSearchOutcome): ApiError {
  if (outcome.kind === 'failed') return new ApiError(outcome.error.status, outcome.error.message);
  if (outcome.kind === 'no_credits') return new ApiError(402, outcome.message);
  return new ApiError(500, 'Something went wrong on our side. Please try again in a moment.');
}

/** The user already has as many searches running as they may (SEARCH_CONCURRENCY_PER_USER). */
export const busy = (max: number) =>
  new ApiError(429, `You already have ${max} searches running. Please wait for one to finish, then try again.`, {
    headers: { 'retry-after': '5' },
  });
