import type { GeminiUsage } from './gemini/usage';
import type { ServiceTierName } from './gemini/prices';

/** What went wrong in the search pipeline; api/ maps it to HTTP (api/search-reply.ts), the worker to retry or give up. */
export type SearchErrorCode =
  | 'website_refused'
  | 'website_failed'
  | 'upstream_busy'
  | 'upstream_failed'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'upstream_rejected'
  | 'upstream_over_limit'
  | 'blocked'
  | 'empty'
  | 'cut_short'
  | 'reading_busy'
  | 'aborted';

/**
 * The one error type of the search pipeline. `message` is a sentence for the user (what went wrong and what
 * to do); `retryable` says a later attempt may succeed (429, 5xx, network), which the timer worker uses to
 * choose a BullMQ retry over UnrecoverableError.
 */
export class SearchError extends Error {
  override name = 'SearchError';
  /**
   * What the failed Gemini call had already used, as its reply reported it before the failure (a stream broken
   * after some pieces, a SAFETY block, an empty reply at MAX_TOKENS): Google bills it, so it is priced and
   * recorded like an answered call's. Null when no usage arrived (a refusal before any answer is not billed).
   */
  usedBeforeFailure: { usage: GeminiUsage; model: string; tier: ServiceTierName } | null = null;
  /** Everything the search's Gemini calls used up to this failure, priced (set where the calls are priced). */
  spent: { usage: GeminiUsage; costUsd: number } | null = null;
  /** How long Gemini asked us to wait before trying again (a 429's RetryInfo.retryDelay), in whole seconds. */
  retryAfterSeconds: number | null = null;
  constructor(
    readonly code: SearchErrorCode,
    message: string,
    readonly retryable: boolean,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}
