/**
 * The one error type of the HTTP boundary. `format: 'text'` answers a plain-text sentence (the page shows it
 * after 'Backend error: '); otherwise the reply is JSON: `body` when given, else `{error: message}`.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 502 | 503,
    message: string,
    readonly options: { format?: 'json' | 'text'; body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}
