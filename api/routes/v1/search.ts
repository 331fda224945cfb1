import { Hono } from 'hono';
import { askRequestSchema } from '../../../core/contract/ask';
import { type SearchEnv, searchAdmission } from '../../admission/search-admission';
import type { AppDeps } from '../../deps';
import { requireScope } from '../../middleware/bearer';
import { streamedSearch, wholeSearch } from '../../search-reply';
import { jsonBody } from '../../validate';
import { parseAskInput } from '../ask-input';

/** Whether the client asked for the answer as it is written (`Accept: text/plain`) rather than whole as JSON. */
const wantsStream = (accept: string | undefined) => /\btext\/plain\b/i.test(accept ?? '') && !/\bapplication\/json\b/i.test(accept ?? '');

/**
 * POST /v1/search {ques, web?, timezone?}: the page's charged search (same credits, rate and search slots) for
 * a token with the `search` scope. JSON with the answer and its events by default; `Accept: text/plain` streams
 * the answer as POST /api/ask does, its events then at GET /v1/searches/{X-Search-Id}.
 */
export function v1SearchRoutes(deps: AppDeps) {
  const app = new Hono<SearchEnv>();
  const admission = searchAdmission(deps);
  app.post('/v1/search', requireScope('search'), admission.admitted, jsonBody(askRequestSchema), async (c) => {
    const input = parseAskInput(c.req.valid('json'));
    if (wantsStream(c.req.header('accept'))) return streamedSearch(deps, admission, c, input);
    return c.json(await wholeSearch(deps, admission, c, input));
  });
  return app;
}
