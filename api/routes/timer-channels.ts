import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import { addChannelRequestSchema, type TimerChannelJson } from '../../core/contract/timer-channels';
import { maskChannelUrl } from '../../core/delivery/channels/mask';
import { checkChannelAddress } from '../../core/delivery/channels/address';
import { DeliveryError } from '../../core/delivery/errors';
import { latestChannelDeliveries } from '../../db/deliveries';
import { addTimerChannel, listTimerChannels, MAX_CHANNELS_PER_TIMER, removeTimerChannel, type TimerChannel } from '../../db/timer-channels';
import { lockOwnTimer } from '../../db/timer-delivery';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser, signedIn } from '../middleware/session';
import { routeId } from '../route-id';
import { jsonBody } from '../validate';

const NOT_FOUND = 'There is no such timer among yours. Reload Manage Timers to see your timers.';
const NO_CHANNEL = 'This timer has no such channel. Reload Manage Timers to see its channels.';

/** A channel as replies carry it: masked, and with no address at all for a reader that may not see secrets. */
export function channelJson(
  c: TimerChannel,
  last: { status: string; at: Date; error: string | null } | undefined,
  secrets: boolean,
): TimerChannelJson {
  return {
    id: c.id,
    kind: c.kind,
    address: secrets ? maskChannelUrl(c.url) : null,
    has_token: c.token !== null,
    stopped: c.stoppedNotice,
    last_delivery: last ? { status: last.status, at: last.at.toISOString(), error: last.error } : null,
  };
}

/** The channels of these timers as replies carry them, by timer. */
export async function timerChannelsJson(deps: AppDeps, timerIds: number[], secrets: boolean): Promise<Map<number, TimerChannelJson[]>> {
  const channels = await listTimerChannels(deps.sql, timerIds);
  const latest = await latestChannelDeliveries(
    deps.sql,
    [...channels.values()].flat().map((c) => c.id),
  );
  return new Map([...channels].map(([id, list]) => [id, list.map((c) => channelJson(c, latest.get(c.id), secrets))]));
}

const factory = createFactory<AppEnv>();

/**
 * Adds a Slack, Discord, Teams or ntfy channel to the user's own timer (POST /api/timers/:id/channels,
 * /v1/timers/:id/channels): the address checked as a webhook's (public addresses only) and by the service's
 * own shape; the reply is the channel, masked.
 */
export const addChannelHandlers = (deps: AppDeps) =>
  factory.createHandlers(jsonBody(addChannelRequestSchema), async (c) => {
    const user = requireUser(c);
    const id = routeId(c.req.param('id'));
    if (id === null) throw new ApiError(404, NOT_FOUND);
    const body = c.req.valid('json');
    let address: { url: string; token: string | null };
    try {
      address = await checkChannelAddress(body.kind, body.url, body.token ?? null, {
        allow: deps.config.webhookAllow,
        resolve: deps.resolve,
      });
    } catch (err) {
      if (err instanceof DeliveryError) throw new ApiError(400, err.message);
      throw err;
    }
    const channel = await deps.sql.begin(async (tx) => {
      if (!(await lockOwnTimer(tx, user.id, id))) throw new ApiError(404, NOT_FOUND);
      const added = await addTimerChannel(tx, id, { kind: body.kind, ...address });
      if (!added) {
        throw new ApiError(409, `A timer can post to at most ${MAX_CHANNELS_PER_TIMER} channels. Remove one before adding another.`);
      }
      return added;
    });
    c.get('log').info({ timerId: id, channelId: channel.id, kind: channel.kind }, 'timer channel added');
    return c.json(channelJson(channel, undefined, true), 201);
  });

/** Removes one channel of the user's own timer (DELETE /api/timers/:id/channels/:channelId, and under /v1). */
export const removeChannelHandlers = (deps: AppDeps) =>
  factory.createHandlers(async (c) => {
    const user = requireUser(c);
    const id = routeId(c.req.param('id'));
    const channelId = routeId(c.req.param('channelId'));
    if (id === null) throw new ApiError(404, NOT_FOUND);
    const removed = await deps.sql.begin(async (tx) => {
      if (!(await lockOwnTimer(tx, user.id, id))) throw new ApiError(404, NOT_FOUND);
      return channelId !== null && (await removeTimerChannel(tx, id, channelId));
    });
    if (!removed) throw new ApiError(404, NO_CHANNEL);
    c.get('log').info({ timerId: id, channelId }, 'timer channel removed');
    return c.body(null, 204);
  });

/** The page's channel routes. */
export function timerChannelRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.post('/api/timers/:id/channels', signedIn, ...addChannelHandlers(deps));
  app.delete('/api/timers/:id/channels/:channelId', signedIn, ...removeChannelHandlers(deps));
  return app;
}
