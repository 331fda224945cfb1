import { Hono } from 'hono';
import { deleteTimer } from '../../../core/timers/lifecycle';
import { SchedulerUnavailableError } from '../../../core/timers/scheduler';
import type { AppDeps, AppEnv } from '../../deps';
import { ApiError } from '../../errors';
import { requireScope } from '../../middleware/bearer';
import { requireUser } from '../../middleware/session';
import { routeId } from '../../route-id';
import { describeTimerHandlers } from '../describe';
import { runNowHandlers, timerRunsHandlers } from '../timer-runs';
import { testDeliveryHandlers } from '../test-delivery';
import { addChannelHandlers, removeChannelHandlers } from '../timer-channels';
import { patchTimerHandlers } from '../timer-settings';
import { listTimersHandlers, saveTimerHandlers, TIMER_SERVICE_UNAVAILABLE } from '../timers';

const NOT_FOUND = 'There is no such timer among yours.';

/** The page's timer routes for a token: reading needs `read`, changing or running a timer needs `timers`. */
export function v1TimerRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/v1/timers', requireScope('read'), ...listTimersHandlers(deps));
  app.post('/v1/timers', requireScope('timers'), ...saveTimerHandlers(deps, { status: 201, defaultTimezone: 'UTC', withFeeds: true }));
  // A sentence read into a timer's fields, saved by nothing: the client checks them, then POSTs /v1/timers.
  app.post('/v1/timers/describe', requireScope('timers'), ...describeTimerHandlers(deps));
  app.patch('/v1/timers/:id', requireScope('timers'), ...patchTimerHandlers(deps));
  app.post('/v1/timers/:id/run', requireScope('timers'), ...runNowHandlers(deps));
  app.post('/v1/timers/:id/channels', requireScope('timers'), ...addChannelHandlers(deps));
  app.delete('/v1/timers/:id/channels/:channelId', requireScope('timers'), ...removeChannelHandlers(deps));
  app.get('/v1/timers/:id/runs', requireScope('read'), ...timerRunsHandlers(deps));
  const test = testDeliveryHandlers(deps);
  app.get('/v1/timers/:id/preview', requireScope('read'), ...test.preview);
  app.post('/v1/timers/:id/test-delivery', requireScope('timers'), ...test.test);

  // The page deletes with POST /api/timer/delete {timer_id} (the spec's call); here it is the timer's own URL.
  app.delete('/v1/timers/:id', requireScope('timers'), async (c) => {
    const user = requireUser(c);
    const id = routeId(c.req.param('id'));
    try {
      if (id === null || !(await deleteTimer(deps, user.id, id))) throw new ApiError(404, NOT_FOUND);
    } catch (err) {
      if (err instanceof SchedulerUnavailableError) throw new ApiError(503, TIMER_SERVICE_UNAVAILABLE);
      throw err;
    }
    c.get('log').info({ timerId: id }, 'timer deleted');
    return c.body(null, 204);
  });
  return app;
}
