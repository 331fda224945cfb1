import { createHash } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { RedisClient } from '../../../core/redis/client';
import { viaRedis } from '../../../core/unavailable';
import type { AppEnv } from '../../deps';
import { ApiError } from '../../errors';
import { requireUser } from '../../middleware/session';

/** How long a first reply is kept for replays (the draft's usual 24 hours). */
export const IDEMPOTENCY_KEPT_S = 24 * 60 * 60;
// A request still being answered holds its key this long at most: one whose process died frees its key then.
const IN_FLIGHT_S = 10 * 60;
// The reply headers a replay repeats besides its status and body.
const REPLAYED = ['content-type', 'location', 'x-search-id'];
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

type Entry =
  | { fingerprint: string; done: false }
  | { fingerprint: string; done: true; status: number; headers: [string, string][]; body: string };

const BAD_KEY =
  'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID is a good choice), optionally in double quotes.';
const IN_USE =
  'A request with this Idempotency-Key is still being answered. Wait for its reply (or a few seconds), then send it again with the same key.';
const REUSED = 'This Idempotency-Key was already used for a different request (another call or body). Use a new key for a new request.';

/**
 * `Idempotency-Key` on a /v1 POST (the IETF httpapi draft): the first request with a key runs and, when it
 * succeeds (2xx), its status, body and content headers are kept 24 hours in Redis, so any api process replays
 * them for the same key and request; the same key with another method, path or body is refused (422), and one
 * sent while the first is still being answered gets 409. A request that fails (not 2xx) created and charged
 * nothing, so its key is freed and a retry runs again. Keys are per user: two users never share one.
 */
export function idempotency(redis: RedisClient, prefix: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header('idempotency-key');
    if (c.req.method !== 'POST' || header === undefined) return next();
    // The draft writes the key as a structured-field string ("…"); a bare token is taken as well.
    const key = /^"(.*)"$/.exec(header.trim())?.[1] ?? header.trim();
    if (!KEY_SHAPE.test(key)) throw new ApiError(400, BAD_KEY, { field: 'Idempotency-Key' });
    const user = requireUser(c);
    const fingerprint = createHash('sha256')
      .update(`${c.req.method} ${c.req.path}\n`)
      .update(await c.req.text())
      .digest('base64url');
    const slot = `${prefix}:idempotency:${user.id}:${createHash('sha256').update(key).digest('base64url')}`;

    const claimed = await viaRedis(() =>
      redis.set(slot, JSON.stringify({ fingerprint, done: false } satisfies Entry), 'EX', IN_FLIGHT_S, 'NX'),
    );
    if (claimed !== 'OK') {
      const raw = await viaRedis(() => redis.get(slot));
      const first = raw === null ? null : (JSON.parse(raw) as Entry);
      if (first === null) throw new ApiError(409, IN_USE, { code: 'idempotency_key_in_use' });
      if (first.fingerprint !== fingerprint) throw new ApiError(422, REUSED, { code: 'idempotency_key_reused', field: 'Idempotency-Key' });
      if (!first.done) throw new ApiError(409, IN_USE, { code: 'idempotency_key_in_use' });
      return new Response(first.body ? Buffer.from(first.body, 'base64') : null, { status: first.status, headers: first.headers });
    }

    await next();
    const res = c.res;
    if (res.status < 200 || res.status > 299) {
      await viaRedis(() => redis.del(slot));
      return;
    }
    const headers = REPLAYED.flatMap((h): [string, string][] => (res.headers.has(h) ? [[h, res.headers.get(h)!]] : []));
    const keep = (body: string) =>
      viaRedis(() =>
        redis.set(
          slot,
          JSON.stringify({ fingerprint, done: true, status: res.status, headers, body } satisfies Entry),
          'EX',
          IDEMPOTENCY_KEPT_S,
        ),
      );
    if (!res.body) {
      await keep('');
      return;
    }
    // A streamed answer is kept as it is sent, without holding it back from the client.
    const [toClient, toKeep] = res.body.tee();
    c.res = new Response(toClient, res);
    const kept = new Response(toKeep).arrayBuffer().then((bytes) => keep(Buffer.from(bytes).toString('base64')));
    if (!/^text\/plain/i.test(res.headers.get('content-type') ?? '')) await kept;
    else kept.catch((err: unknown) => c.get('log').warn({ err }, 'the streamed reply of an idempotent request was not kept'));
  });
}
