import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import { deleteTimerRequestSchema, type ListedTimer, scheduleRequestSchema, type StatusReply } from '../../core/contract/timers';
import { parseTimerInput, MAX_TIMERS_PER_USER } from '../../core/timers/input';
import { SchedulerUnavailableError } from '../../core/timers/scheduler';
import { createTimer, deleteTimer } from '../../core/timers/lifecycle';
import { nextRunAt } from '../../core/timers/schedule';
import { latestDeliveries, type DeliveryChannel, type DeliveryState } from '../../db/deliveries';
import type { AnswerCorrection } from '../../core/contract/answer-correction';
import { latestRunsMarked } from '../run-answer-corrections';
import { timerFeedUrls } from './feeds';
import { listUserTimers, type LatestRun, type Timer } from '../../db/timers';
import type { ApiTokenScope } from '../../core/contract/api-tokens';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser, signedIn } from '../middleware/session';
import { jsonBody } from '../validate';
import type { TimerChannelJson } from '../../core/contract/timer-channels';
import { timerChannelsJson } from './timer-channels';
import { timerDeliveryJson } from './timer-delivery-json';
import { checkTimerWebsite } from './timer-website';

export const TIMER_SERVICE_UNAVAILABLE =
  'The timer service is unavailable right now (its queue cannot be reached). Nothing was changed; please try again in a minute.';

type LatestDeliveries = Partial<Record<DeliveryChannel, DeliveryState>>;

/** The spec's timer fields plus when it fires next, how its latest run went, and its delivery settings. */
export function timerJson(
  t: Timer,
  lastRun: (LatestRun & { corrections: AnswerCorrection[] }) | null,
  delivery: { latest?: LatestDeliveries; emailAvailable: boolean; channels?: TimerChannelJson[] },
): ListedTimer {
  return {
    id: t.id,
    scheduleType: t.scheduleType,
    time: t.time,
    weekday: t.weekday,
    ques: t.ques,
    web: t.web,
    timezone: t.timezone,
    filters: t.filters,
    nextRunAt: nextRunAt(t).toISOString(),
    lastRun: lastRun
      ? {
          at: lastRun.at.toISOString(),
          status: lastRun.status,
          answer: lastRun.answer ?? lastRun.error,
          answer_corrections: lastRun.answer === null ? [] : lastRun.corrections,
        }
      : null,
    ...timerDeliveryJson(t, delivery.latest, delivery.emailAvailable),
    // A new timer has none; the listing and a change's reply pass the timer's own.
    channels: delivery.channels ?? [],
  };
}

const factory = createFactory<AppEnv>();

/**
 * Saves a timer from its fields (POST /api/schedule, POST /v1/timers); replies the timer with `status`. /v1 takes a
 * timer without `timezone` as UTC (`defaultTimezone`) and answers its feed addresses too (`withFeeds`).
 */
export const saveTimerHandlers = (deps: AppDeps, options: { status?: 200 | 201; defaultTimezone?: string; withFeeds?: boolean } = {}) =>
  factory.createHandlers(jsonBody(scheduleRequestSchema), async (c) => {
    const user = requireUser(c);
    const body = c.req.valid('json');
    const check = parseTimerInput(options.defaultTimezone ? { ...body, timezone: body.timezone ?? options.defaultTimezone } : body);
    if (!check.ok) throw new ApiError(400, check.message);
    // The same address rules as at each run, so a timer that could never read its website is not saved.
    await checkTimerWebsite(deps, check.input.web);
    try {
      const result = await createTimer(deps, user.id, check.input);
      if (!result.ok) {
        throw new ApiError(400, `You already have ${MAX_TIMERS_PER_USER} timers, the most allowed. Delete one before saving another.`);
      }
      c.get('log').info({ timerId: result.timer.id }, 'timer created');
      const json = timerJson(result.timer, null, { emailAvailable: deps.config.mail.url !== null });
      const feeds = options.withFeeds ? (await timerFeedUrls(deps, [result.timer.id])).get(result.timer.id) : undefined;
      return c.json({ ...json, ...feeds }, options.status ?? 200);
    } catch (err) {
      if (err instanceof SchedulerUnavailableError) {
        c.get('log').warn({ err: err.message }, 'timer not created: redis unavailable');
        throw new ApiError(503, TIMER_SERVICE_UNAVAILABLE);
      }
      throw err;
    }
  });

/** Whether a reply may carry a timer's feed and webhook addresses: on the page, or for a `timers` token. */
export const seesTimerSecrets = (scopes: readonly ApiTokenScope[] | undefined) => scopes === undefined || scopes.includes('timers');

/** The user's timers (GET /api/timers, GET /v1/timers). */
export const listTimersHandlers = (deps: AppDeps) =>
  factory.createHandlers(async (c) => {
    const user = requireUser(c);
    const timers = await listUserTimers(deps.sql, user.id);
    const ids = timers.map((t) => t.id);
    // Feed and webhook addresses are secrets that outlive a token (a feed link works until rotated): only the
    // page and tokens that may change timers' settings see them; a read token sees webhook_url null, no feeds,
    // and its channels without their (masked) addresses.
    const secrets = seesTimerSecrets(c.get('tokenScopes'));
    const [deliveries, feeds, lastRuns, channels] = await Promise.all([
      latestDeliveries(deps.sql, ids),
      secrets ? timerFeedUrls(deps, ids) : new Map(),
      latestRunsMarked(deps.sql, timers),
      timerChannelsJson(deps, ids, secrets),
    ]);
    const emailAvailable = deps.config.mail.url !== null;
    return c.json(
      timers.map((t) => {
        const lastRun = lastRuns.get(t.id) ?? null;
        const json = {
          ...timerJson(t, lastRun, { latest: deliveries.get(t.id), emailAvailable, channels: channels.get(t.id) }),
          ...feeds.get(t.id),
        };
        return secrets ? json : { ...json, webhook_url: null };
      }),
    );
  });

export function timerRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.post('/api/schedule', signedIn, ...saveTimerHandlers(deps));

  app.get('/api/timers', ...listTimersHandlers(deps));

  app.post('/api/timer/delete', signedIn, jsonBody(deleteTimerRequestSchema), async (c) => {
    const user = requireUser(c);
    const id = Number(c.req.valid('json').timer_id);
    const notFound = () => new ApiError(404, 'Timer not found', { body: { status: 'error', message: 'Timer not found' } });
    if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
    try {
      if (!(await deleteTimer(deps, user.id, id))) throw notFound();
    } catch (err) {
      if (err instanceof SchedulerUnavailableError) {
        c.get('log').warn({ err: err.message, timerId: id }, 'timer not deleted: redis unavailable');
        throw new ApiError(503, TIMER_SERVICE_UNAVAILABLE, { body: { status: 'error', message: TIMER_SERVICE_UNAVAILABLE } });
      }
      throw err;
    }
    c.get('log').info({ timerId: id }, 'timer deleted');
    return c.json({ status: 'success', message: 'Timer deleted' } satisfies StatusReply);
  });

  return app;
}
