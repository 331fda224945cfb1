import { Hono } from 'hono';
import { askRequestSchema } from '../../../core/contract/ask';
import { type SearchEnv, searchAdmission } from '../../admission/search-admission';
import { requireScope } from '../../middleware/bearer';
import { type SearchReplyDeps, streamedSearch, wholeSearch } from '../../search-reply';
import { jsonBody } from '../../validate';
import { parseAskInput } from '../ask-input';

/**
 * POST /v1/search {ques, web?, timezone?}: the page's charged search (same credits, rate and search slots) for
 * a token with the `search` scope, answered whole as JSON. POST /v1/search/stream is the same search streamed as
 * POST /api/ask does, its events then at GET /v1/searches/{X-Search-Id}: two operations, so each has one reply
 * type and typed clients need no narrowing.
 */
export function v1SearchRoutes(deps: SearchReplyDeps) {
  const app = new Hono<SearchEnv>();
  const admission = searchAdmission(deps);
  app.post('/v1/search', requireScope('search'), admission.admitted, jsonBody(askRequestSchema), async (c) =>
    c.json(await wholeSearch(deps, admission, c, parseAskInput(c.req.valid('json')))),
  );
  app.post('/v1/search/stream', requireScope('search'), admission.admitted, jsonBody(askRequestSchema), (c) =>
    streamedSearch(deps, admission, c, parseAskInput(c.req.valid('json'))),
  );
  return app;
}
