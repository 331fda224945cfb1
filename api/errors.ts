import type { ProblemCode, ProblemExtensions } from '../core/contract/problem';

/**
 * The one error type of the HTTP boundary. Whether the reply is a plain-text sentence or JSON is the route's
 * to decide, not the thrower's: `app.onError` (api/app.ts) answers text on the routes listed in
 * TEXT_ERROR_ROUTES, RFC 9457 problem details on /v1, and JSON elsewhere, `body` when given, else `{error: message}`.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503,
    message: string,
    /** `code` and `field` are for /v1's problem details (api/routes/v1/problem.ts); `code` defaults by status. */
    readonly options: {
      body?: Record<string, unknown>;
      headers?: Record<string, string>;
      code?: ProblemCode;
      field?: string;
      /** Extension members of /v1's problem details, declared in core/contract/problem.ts (`search_id`, `partial_answer`). */
      extensions?: ProblemExtensions;
    } = {},
  ) {
    super(message);
  }
}

/**
 * Routes whose error replies are plain text: the page shows the reply text of /api/ask and /api/schedule
 * verbatim after 'Backend error: ' (docs/contract.md), and the portal form's reply is shown by the browser itself.
 */
export const TEXT_ERROR_ROUTES = new Set(['POST /api/ask', 'POST /api/schedule', 'POST /create-portal-session']);
