import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { feedByToken, feedTokensOf, feedUrls, isFeedTokenShape, rotateFeedToken } from '../../core/events/feed-token';
import { FEED_MAX_EVENTS, feedWindowStart } from '../../core/events/feed-window';
import { timerRunsUrl } from '../../core/delivery/links';
import { timerAtom, timerCalendar } from '../../core/events/feeds';
import type { Db } from '../../db/client';
import { runsWithNewEvents } from '../../db/events';
import { timerFeedEvents } from '../../db/feeds';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser } from '../middleware/session';
import { routeId } from '../route-id';

const FEEDS_OFF = 'Calendar feeds are turned off on this server (FEED_TOKEN_SECRET is not set). Ask its operator to set it.';

/** The feed URLs of the user's timers (both null when feeds are off), for GET /api/timers. */
export async function timerFeedUrls(
  deps: Pick<AppDeps, 'sql' | 'config'>,
  timerIds: number[],
): Promise<Map<number, { ical_url: string | null; atom_url: string | null }>> {
  const secret = deps.config.feedTokenSecret;
  const urls = new Map<number, { ical_url: string | null; atom_url: string | null }>();
  if (!secret) {
    for (const id of timerIds) urls.set(id, { ical_url: null, atom_url: null });
    return urls;
  }
  for (const [id, token] of await feedTokensOf(deps.sql as Db, secret, timerIds)) urls.set(id, feedUrls(deps.config.appUrl, token));
  return urls;
}

/**
 * The per-timer feeds: GET /feeds/:token.ics and .atom (no sign-in, the token is the secret) and
 * POST /api/timers/:id/feed-token (a new token; the old URLs then answer 404).
 */
export function feedRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const host = new URL(deps.config.appUrl).hostname;

  app.post('/api/timers/:id/feed-token', async (c) => {
    const user = requireUser(c);
    const secret = deps.config.feedTokenSecret;
    if (!secret) throw new ApiError(503, FEEDS_OFF);
    const id = routeId(c.req.param('id'));
    const token = id === null ? null : await rotateFeedToken(deps.sql, secret, user.id, id);
    if (!token) throw new ApiError(404, 'Timer not found');
    c.get('log').info({ timerId: id }, 'feed token rotated');
    return c.json(feedUrls(deps.config.appUrl, token));
  });

  app.get('/feeds/:file', async (c) => {
    const m = /^(.+)\.(ics|atom)$/.exec(c.req.param('file'));
    const notFound = () => c.text('This feed address is not known. It may have been replaced by a new one in Manage Timers.', 404);
    if (!m?.[1] || !deps.config.feedTokenSecret || !isFeedTokenShape(m[1])) return notFound();
    const windowStart = feedWindowStart();
    // One indexed read finds the timer and what its feeds hold now, so an unchanged poll costs only that.
    const found = await feedByToken(deps.sql, m[1]!, windowStart);
    if (!found) return notFound();
    const { timer, version, modified } = found;
    const format = m[2] as 'ics' | 'atom';
    const runsUrl = timerRunsUrl(deps.config.appUrl, timer.id);
    const etag = `"${createHash('sha256').update(`${format}:${timer.id}:${version}`).digest('base64url').slice(0, 27)}"`;
    const headers = { etag, 'last-modified': modified.toUTCString(), 'cache-control': 'private, max-age=300' };
    // `*` matches any current representation (RFC 9110, 13.1.2): the feed exists, so nothing new to send.
    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch?.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag)) {
      return c.body(null, 304, headers);
    }
    // If-Modified-Since counts only without If-None-Match (RFC 9110, 13.2.2); dates are to the second.
    const since = Date.parse(c.req.header('if-modified-since') ?? '');
    if (ifNoneMatch === undefined && Number.isFinite(since) && Math.floor(modified.getTime() / 1000) * 1000 <= since) {
      return c.body(null, 304, headers);
    }
    if (format === 'ics') {
      const body = timerCalendar(timer, await timerFeedEvents(deps.sql, timer.id, windowStart, FEED_MAX_EVENTS), {
        uidDomain: host,
        runsUrl,
      });
      return c.body(body, 200, { ...headers, 'content-type': 'text/calendar; charset=utf-8' });
    }
    const body = timerAtom(timer, await runsWithNewEvents(deps.sql, timer.id), {
      selfUrl: `${deps.config.appUrl}${c.req.path}`,
      idAuthority: host,
      runsUrl,
    });
    return c.body(body, 200, { ...headers, 'content-type': 'application/atom+xml; charset=utf-8' });
  });

  return app;
}
