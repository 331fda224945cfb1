import { Hono } from 'hono';
import { parseTimerInput, MAX_TIMERS_PER_USER } from '../../core/timer-input';
import { SchedulerUnavailableError } from '../../core/timer-scheduler';
import { createTimer, deleteTimer } from '../../core/timers';
import { nextRunAt } from '../../core/schedule';
import { latestDeliveries, type DeliveryChannel, type DeliveryState } from '../../db/deliveries';
import { listUserTimers, type LatestRun, type Timer } from '../../db/timers';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { timerDeliveryJson } from './timer-delivery-json';
import { requireUser } from '../middleware/session';

const UNAVAILABLE =
  'The timer service is unavailable right now (its queue cannot be reached). Nothing was changed; please try again in a minute.';

type LatestDeliveries = Partial<Record<DeliveryChannel, DeliveryState>>;

/** The spec's timer fields plus when it fires next, how its latest run went, and its delivery settings. */
export function timerJson(t: Timer, lastRun: LatestRun | null, delivery: { latest?: LatestDeliveries; emailAvailable: boolean }) {
  return {
    id: t.id,
    scheduleType: t.scheduleType,
    time: t.time,
    weekday: t.weekday,
    ques: t.ques,
    web: t.web,
    timezone: t.timezone,
    nextRunAt: nextRunAt(t).toISOString(),
    lastRun: lastRun ? { at: lastRun.at.toISOString(), status: lastRun.status, answer: lastRun.answer ?? lastRun.error } : null,
    ...timerDeliveryJson(t, delivery.latest, delivery.emailAvailable),
  };
}

export async function readJson(c: { req: { json: () => Promise<unknown> } }, format: 'json' | 'text'): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ApiError(400, 'The request body must be valid JSON.', { format });
  }
}

export function timerRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.post('/api/schedule', async (c) => {
    const user = requireUser(c, 'text');
    const check = parseTimerInput(await readJson(c, 'text'));
    if (!check.ok) throw new ApiError(400, check.message, { format: 'text' });
    try {
      const result = await createTimer(deps, user.id, check.input);
      if (!result.ok) {
        throw new ApiError(400, `You already have ${MAX_TIMERS_PER_USER} timers, the most allowed. Delete one before saving another.`, {
          format: 'text',
        });
      }
      c.get('log').info({ timerId: result.timer.id }, 'timer created');
      return c.json(timerJson(result.timer, null, { emailAvailable: deps.config.mail.url !== null }));
    } catch (err) {
      if (err instanceof SchedulerUnavailableError) {
        c.get('log').warn({ err: err.message }, 'timer not created: redis unavailable');
        throw new ApiError(503, UNAVAILABLE, { format: 'text' });
      }
      throw err;
    }
  });

  app.get('/api/timers', async (c) => {
    const user = requireUser(c);
    const timers = await listUserTimers(deps.sql, user.id);
    const deliveries = await latestDeliveries(
      deps.sql,
      timers.map((t) => t.id),
    );
    const emailAvailable = deps.config.mail.url !== null;
    return c.json(timers.map((t) => timerJson(t, t.lastRun, { latest: deliveries.get(t.id), emailAvailable })));
  });

  app.post('/api/timer/delete', async (c) => {
    const user = requireUser(c);
    const body = (await readJson(c, 'json')) as { timer_id?: unknown } | null;
    const id = Number(body?.timer_id);
    const notFound = () => new ApiError(404, 'Timer not found', { body: { status: 'error', message: 'Timer not found' } });
    if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
    try {
      if (!(await deleteTimer(deps, user.id, id))) throw notFound();
    } catch (err) {
      if (err instanceof SchedulerUnavailableError) {
        c.get('log').warn({ err: err.message, timerId: id }, 'timer not deleted: redis unavailable');
        throw new ApiError(503, UNAVAILABLE, { body: { status: 'error', message: UNAVAILABLE } });
      }
      throw err;
    }
    c.get('log').info({ timerId: id }, 'timer deleted');
    return c.json({ status: 'success', message: 'Timer deleted' });
  });

  return app;
}
