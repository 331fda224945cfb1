import { Hono } from 'hono';
import { askRequestSchema } from '../../core/contract/ask';
import { type SearchEnv, searchAdmission } from '../admission/search-admission';
import { signedIn } from '../middleware/session';
import { type SearchReplyDeps, streamedSearch } from '../search-reply';
import { jsonBody } from '../validate';
import { parseAskInput } from './ask-input';

/**
 * POST /api/ask {ques, web, timezone?}: the HTTP side of one charged search (core/search/charged-search.ts),
 * streamed as plain text (api/search-reply.ts). POST /v1/search is the same search for a personal API token.
 */
export function askRoutes(deps: SearchReplyDeps) {
  const app = new Hono<SearchEnv>();
  const admission = searchAdmission(deps);
  app.post('/api/ask', signedIn, admission.admitted, jsonBody(askRequestSchema), (c) =>
    streamedSearch(deps, admission, c, parseAskInput(c.req.valid('json'))),
  );
  return app;
}
