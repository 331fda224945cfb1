import { sValidator } from '@hono/standard-validator';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from './errors';

const NOT_JSON = 'The request body is not valid JSON. Please reload the page and try again.';
// The same for a program calling /v1: what to fix in what it sends.
const NOT_JSON_API = 'The request body is not valid JSON: send one JSON object, with the header Content-Type: application/json.';

/**
 * Validates a route's JSON body with its contract schema (core/contract/); the handler reads the typed value
 * with `c.req.valid('json')`. The first problem becomes the 400's sentence, in the route's error format, or
 * goes to `refuse` for a route whose refusals have a shape of their own.
 */
export function jsonBody<S extends StandardSchemaV1>(
  schema: S,
  refuse = (message: string, field?: string): Error => new ApiError(400, message, { field }),
) {
  const validate = sValidator('json', schema, (result) => {
    if (result.success) return;
    const issue = result.error[0];
    const field = issue?.path?.map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
    throw refuse(issue?.message ?? 'The request body is not what this call expects.', field || undefined);
  });
  const readable: MiddlewareHandler = async (c, next) => {
    try {
      return await validate(c, next);
    } catch (err) {
      // Hono's own sentence for a body that does not parse names no next step; ours does.
      if (err instanceof HTTPException && err.status === 400 && err.message.startsWith('Malformed JSON')) {
        throw refuse(c.req.path.startsWith('/v1/') ? NOT_JSON_API : NOT_JSON);
      }
      throw err;
    }
  };
  return readable as typeof validate;
}
