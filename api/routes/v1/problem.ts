import type { Context } from 'hono';
import {
  DEFAULT_PROBLEM,
  PROBLEM_MEDIA_TYPE,
  PROBLEMS,
  type Problem,
  type ProblemCode,
  type ProblemExtensions,
} from '../../../core/contract/problem';

/** The paths whose errors are problem details: the versioned public API. */
export const isV1Path = (path: string) => path.startsWith('/v1/');

/** Where a code is explained: its entry in the API docs page (web/pages/api-docs.tsx), the problem's `type`. */
export const problemType = (appUrl: string, code: ProblemCode) => `${appUrl}/api/docs#problem-${code}`;

// What a client is told to wait when the refusal names no time of its own: every 429 and 503 says when to retry.
const DEFAULT_RETRY_AFTER_S: Partial<Record<number, number>> = { 429: 5, 503: 30 };

export interface ProblemInput {
  status: number;
  detail: string;
  code?: ProblemCode;
  field?: string;
  headers?: Record<string, string>;
  extensions?: ProblemExtensions;
}

/**
 * A /v1 error reply as RFC 9457 problem details (`application/problem+json`): `type`, `title`, `status`,
 * `detail`, the stable `code` (the status's usual one unless the thrower named another), `field` when known, and
 * the extension members the error carries.
 */
export function problemReply(c: Context, appUrl: string, p: ProblemInput): Response {
  const code = p.code ?? DEFAULT_PROBLEM[p.status] ?? (p.status >= 500 ? 'internal' : 'validation');
  const body: Problem = {
    type: problemType(appUrl, code),
    title: PROBLEMS[code].title,
    status: p.status,
    detail: p.detail,
    code,
    ...(p.field ? { field: p.field } : {}),
    ...p.extensions,
  };
  const headers = new Headers(p.headers);
  const wait = DEFAULT_RETRY_AFTER_S[p.status];
  if (wait !== undefined && !headers.has('retry-after')) headers.set('Retry-After', String(wait));
  headers.set('Content-Type', PROBLEM_MEDIA_TYPE);
  for (const [k, v] of headers) c.header(k, v);
  return c.body(JSON.stringify(body), p.status as 400);
}
