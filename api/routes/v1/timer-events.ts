import { Hono } from 'hono';
import type { TimerEventsReply } from '../../../core/contract/timer-events';
import { timerEventsAfter } from '../../../db/timer-event-cursor';
import type { AppDeps, AppEnv } from '../../deps';
import { ApiError } from '../../errors';
import { requireScope } from '../../middleware/bearer';
import { requireUser } from '../../middleware/session';
import { routeId } from '../../route-id';

const PAGE = 200;
const BAD_CURSOR = 'since must be a cursor from an earlier reply of this call (a whole number), or left out to start at the beginning.';

/** GET /v1/timers/:id/events?since=<cursor>: what the timer found new or changed since the client last asked. */
export function v1TimerEventRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/v1/timers/:id/events', requireScope('read'), async (c) => {
    const user = requireUser(c);
    const id = routeId(c.req.param('id'));
    const since = c.req.query('since') ?? '0';
    if (!/^\d{1,15}$/.test(since)) throw new ApiError(400, BAD_CURSOR);
    const found = id === null ? null : await timerEventsAfter(deps.sql, user.id, id, Number(since), PAGE);
    if (!found) throw new ApiError(404, 'There is no such timer among yours.');
    const reply: TimerEventsReply = {
      events: found.map((f) => ({ ...f.event, changed: f.changed, run_id: f.runId })),
      cursor: String(found.at(-1)?.seq ?? since),
      has_more: found.length === PAGE,
    };
    return c.json(reply);
  });
  return app;
}
