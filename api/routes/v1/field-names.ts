import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../deps';
import { ApiError } from '../../errors';

// Replies name a search's fields `question` and `website`; requests take the page's `ques` and `web`.
const REQUEST_NAME: Readonly<Record<string, string>> = { question: 'ques', website: 'web' };

/**
 * Refuses a /v1 body that uses a reply's field name where the request takes another (`question` for `ques`,
 * `website` for `web`), naming both, instead of answering as if the field were missing. Only names, not
 * aliases: one spelling per field in requests.
 */
export const replyFieldNames = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== 'POST' && c.req.method !== 'PATCH') return next();
  const body: unknown = await c.req.json().catch(() => undefined);
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [sent, wanted] of Object.entries(REQUEST_NAME)) {
      if (sent in body && !(wanted in body)) {
        throw new ApiError(400, `This call takes the field "${wanted}", not "${sent}": send {"${wanted}": …}.`, { field: sent });
      }
    }
  }
  return next();
});
