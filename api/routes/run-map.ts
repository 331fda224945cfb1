import { Hono } from 'hono';
import type { RunMapReply } from '../../core/contract/run-map';
import { mapPoints } from '../../core/filters/event-places';
import { ownRunEvents } from '../../db/events';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser } from '../middleware/session';
import { routeId } from '../route-id';

const NOT_FOUND = 'There is no such run among your timers. Reload Manage Timers to see your timers.';

/** GET /api/timers/:id/runs/:runId/map: where a run's in-person events are, for the map beside its list. */
export function runMapRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/api/timers/:id/runs/:runId/map', async (c) => {
    const user = requireUser(c);
    const timerId = routeId(c.req.param('id'));
    const runId = routeId(c.req.param('runId'));
    if (timerId === null || runId === null) throw new ApiError(404, NOT_FOUND);
    const events = await ownRunEvents(deps.sql, user.id, timerId, runId);
    if (!events) throw new ApiError(404, NOT_FOUND);
    const map = deps.config.map;
    return c.json({
      tile_url: map?.tileUrl ?? null,
      attribution: map?.attribution ?? '',
      points: map ? mapPoints(events) : [],
    } satisfies RunMapReply);
  });
  return app;
}
