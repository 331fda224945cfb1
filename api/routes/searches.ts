import { Hono } from 'hono';
import type { SearchReply } from '../../core/contract/event-replies';
import { searchEvents } from '../../db/events';
import { getUserSearch } from '../../db/searches';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser } from '../middleware/session';
import { routeId } from '../route-id';

/** GET /api/searches/:id: the signed-in user's own search with its answer and events (docs/contract.md). */
export function searchRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/api/searches/:id', async (c) => {
    const user = requireUser(c);
    const id = routeId(c.req.param('id'));
    const search = id === null ? null : await getUserSearch(deps.sql, user.id, id);
    if (!search) throw new ApiError(404, 'There is no such search among yours.');
    const reply: SearchReply = { ...search, events: await searchEvents(deps.sql, search.id) };
    return c.json(reply);
  });

  return app;
}
