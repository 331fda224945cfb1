import * as z from 'zod/mini';

/**
 * The stable `code` of each kind of /v1 error, with its HTTP status and its RFC 9457 `title`. A client branches on
 * `code` (a 429 for the rate and a 429 for a busy AI service are different codes); `detail` is the sentence for a
 * person. Codes are only ever added, never renamed.
 */
export const PROBLEMS = {
  validation: { status: 400, title: 'The request is not valid' },
  website_refused: { status: 400, title: 'The website cannot be read' },
  blocked: { status: 400, title: 'The question was refused by the AI service' },
  unauthorized: { status: 401, title: 'No valid API token' },
  out_of_searches: { status: 402, title: 'No searches left this month' },
  insufficient_scope: { status: 403, title: 'The token lacks the scope this call needs' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflicts with the current state' },
  idempotency_key_in_use: { status: 409, title: 'A request with this Idempotency-Key is still being answered' },
  payload_too_large: { status: 413, title: 'The body is too large' },
  unsupported_media_type: { status: 415, title: 'The body is not JSON' },
  idempotency_key_reused: { status: 422, title: 'This Idempotency-Key was used with another request' },
  rate_limited: { status: 429, title: 'Too many requests' },
  too_many_searches: { status: 429, title: 'Too many searches at once' },
  gemini_busy: { status: 429, title: 'The AI service is busy' },
  internal: { status: 500, title: 'Something went wrong on our side' },
  gemini_failed: { status: 502, title: 'The AI service failed to answer' },
  upstream_failed: { status: 502, title: 'A service we depend on failed' },
  gemini_unavailable: { status: 503, title: 'The AI service is unavailable' },
  unavailable: { status: 503, title: 'Temporarily unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEMS;
export const PROBLEM_CODES = Object.keys(PROBLEMS) as [ProblemCode, ...ProblemCode[]];
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The code of an error that names none: the usual meaning of its status. */
export const DEFAULT_PROBLEM: Readonly<Record<number, ProblemCode>> = {
  400: 'validation',
  401: 'unauthorized',
  402: 'out_of_searches',
  403: 'insufficient_scope',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'idempotency_key_reused',
  429: 'rate_limited',
  500: 'internal',
  502: 'upstream_failed',
  503: 'unavailable',
};

/** Every /v1 error reply: RFC 9457 problem details with a stable `code`, sent as `application/problem+json`. */
export const problemSchema = z.object({
  type: z.string().check(z.describe('A URI naming the kind of problem: the `code`’s entry in the API docs.')),
  title: z.string().check(z.describe('A short summary of the kind, the same for every problem with this `code`.')),
  status: z.number().check(z.int(), z.describe('The HTTP status of the reply.')),
  detail: z.string().check(z.describe('What went wrong this time and what to do, as a sentence for a person.')),
  code: z.enum(PROBLEM_CODES).check(z.describe('The kind of problem, stable for clients to branch on.')),
  field: z.optional(z.string().check(z.describe('With `validation`: the request field at fault, when one is.'))),
  search_id: z.optional(
    z.number().check(z.int(), z.describe('With a search that failed after its answer began: the search, at GET /v1/searches/{id}.')),
  ),
  partial_answer: z.optional(
    z.string().check(z.describe('With `search_id`: the part of the answer written before the failure. The search is not charged.')),
  ),
});
export type Problem = z.infer<typeof problemSchema>;

/** The problem members beyond RFC 9457's and `code`/`field` that an error may carry. */
export type ProblemExtensions = Pick<Problem, 'search_id' | 'partial_answer'>;
