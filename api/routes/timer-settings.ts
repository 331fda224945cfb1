import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import { parseTimerSettings, timerSettingsSchema } from '../../core/contract/timer-settings';
import { DeliveryError } from '../../core/delivery/errors';
import { checkWebhookUrl } from '../../core/delivery/webhook';
import { SchedulerUnavailableError } from '../../core/timers/scheduler';
import { TimerEditError, updateTimerSettings } from '../../core/timers/settings';
import { SearchError } from '../../core/search-error';
import { checkWebsiteAddress } from '../../core/website/fetch';
import { resolveFilters } from '../../core/filters/resolve';
import { latestDeliveries } from '../../db/deliveries';
import { listUserTimers } from '../../db/timers';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser, signedIn } from '../middleware/session';
import { routeId } from '../route-id';
import { jsonBody } from '../validate';
import { timerFeedUrls } from './feeds';
import { latestRunsMarked } from '../run-answer-corrections';
import { timerChannelsJson } from './timer-channels';
import { timerJson } from './timers';

const NOT_FOUND = 'There is no such timer among yours. Reload Manage Timers to see your timers.';
const UNAVAILABLE =
  'The timer service is unavailable right now (its queue cannot be reached). Nothing was changed; please try again in a minute.';

/**
 * Edit a timer in place (POST /api/schedule's fields, its filters), pause or resume it, turn its email on or
 * off, set or remove its webhook (PATCH /api/timers/:id, /v1/timers/:id).
 */
export const patchTimerHandlers = (deps: AppDeps) =>
  createFactory<AppEnv>().createHandlers(jsonBody(timerSettingsSchema), async (c) => {
    const user = requireUser(c);
    const id = routeId(c.req.param('id'));
    if (id === null) throw new ApiError(404, NOT_FOUND);
    const check = parseTimerSettings(c.req.valid('json'));
    if (!check.ok) throw new ApiError(400, check.message);
    const { paused, email, scheduleType, time, weekday, timezone, ques, web } = check.value;
    const filters = 'filters' in check.value ? resolveFilters(check.value.filters) : undefined;
    if (filters && !filters.ok) throw new ApiError(400, filters.message);
    let webhookUrl = check.value.webhook_url?.trim();
    if (webhookUrl === '') webhookUrl = undefined;
    if (webhookUrl) {
      // The same guard as website fetching, at save; the deliver job checks again before every POST.
      try {
        await checkWebhookUrl(webhookUrl, { allow: deps.config.webhookAllow });
      } catch (err) {
        if (err instanceof DeliveryError) throw new ApiError(400, err.message);
        throw err;
      }
    }
    const removeWebhook = check.value.webhook_url === null || check.value.webhook_url?.trim() === '';
    let webhookSecret: string | null = null;
    try {
      const timer = await updateTimerSettings(
        deps,
        user.id,
        id,
        {
          paused,
          email,
          webhookUrl: removeWebhook ? null : webhookUrl,
          filters: filters?.filters,
          checkedOnly: check.value.checked_only,
          definition: { scheduleType, time, weekday, timezone, ques, web },
        },
        async (address) => {
          // The same address rules as creation and every run: a timer that could never read its website is not saved.
          await checkWebsiteAddress(address, { allow: deps.config.websiteFetchAllow, resolve: deps.resolve }).catch((err: unknown) => {
            throw err instanceof SearchError ? new TimerEditError(err.message, 400) : err;
          });
        },
      );
      if (!timer) throw new ApiError(404, NOT_FOUND);
      webhookSecret = timer.webhookSecret;
    } catch (err) {
      if (err instanceof TimerEditError) throw new ApiError(err.status, err.message);
      if (err instanceof SchedulerUnavailableError) {
        c.get('log').warn({ err: err.message, timerId: id }, 'timer settings not changed: redis unavailable');
        throw new ApiError(503, UNAVAILABLE);
      }
      throw err;
    }
    c.get('log').info(
      {
        timerId: id,
        paused,
        email,
        edited: (scheduleType ?? time ?? weekday ?? timezone ?? ques ?? web) ? true : undefined,
        webhook: webhookUrl ? 'set' : removeWebhook ? 'removed' : undefined,
      },
      'timer settings changed',
    );
    const timer = (await listUserTimers(deps.sql, user.id)).find((t) => t.id === id)!;
    const [deliveries, feeds, lastRuns, channels] = await Promise.all([
      latestDeliveries(deps.sql, [id]),
      timerFeedUrls(deps, [id]),
      latestRunsMarked(deps.sql, [timer]),
      timerChannelsJson(deps, [id], true),
    ]);
    const emailAvailable = deps.config.mail.url !== null;
    // The same timer as GET /api/timers lists it, so the page can put it in place of the old one.
    // A new webhook address's signing secret is in this reply only (docs/decisions/delivery.md): the page shows it once.
    return c.json({
      ...timerJson(timer, lastRuns.get(id) ?? null, { latest: deliveries.get(id), emailAvailable, channels: channels.get(id) }),
      ...feeds.get(id),
      ...(webhookSecret ? { webhook_secret: webhookSecret } : {}),
    });
  });

/** PATCH /api/timers/:id for the page. */
export function timerSettingsRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.patch('/api/timers/:id', signedIn, ...patchTimerHandlers(deps));
  return app;
}
