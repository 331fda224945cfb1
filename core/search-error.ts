/** What went wrong in the search pipeline; api/ maps it to HTTP (api/routes/ask-refusals.ts), the worker to retry or give up. */
export type SearchErrorCode =
  | 'website_refused'
  | 'website_failed'
  | 'upstream_busy'
  | 'upstream_failed'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'upstream_rejected'
  | 'blocked'
  | 'empty'
  | 'aborted';

/**
 * The one error type of the search pipeline. `message` is a sentence for the user (what went wrong and what
 * to do); `retryable` says a later attempt may succeed (429, 5xx, network), which the timer worker uses to
 * choose a BullMQ retry over UnrecoverableError.
 */
export class SearchError extends Error {
  override name = 'SearchError';
  constructor(
    readonly code: SearchErrorCode,
    message: string,
    readonly retryable: boolean,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}
