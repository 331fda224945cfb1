import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricSample, scrape, startFleet, type Fleet, untilApisHearRevocations } from '../dev/harness/fleet';
import { withSessionProof } from '../dev/harness/session-proof-cookie';
import { startRedisServer, type RedisServer } from '../dev/harness/redis-server';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';

/**
 * How long the test waits before it calls a hang never noticed. How soon it is noticed is a goal of
 * `make bench ONLY=redis-pause`; here it only has to happen, well before the 71 s a hung command once took.
 */
const HANG_NOTICED_WITHIN_MS = 30_000;

// A Redis that hangs instead of closing (its process stopped: connections stay open, nothing is answered). Two
// built api processes share a Redis this test started, then paused: a session ended on one stops working on the
// other (its proofs are checked in Postgres once revocations cannot be heard), asks are refused
// with a sentence and cost nothing, the outage is counted, and all is well again once Redis runs.
describe('a Redis that hangs', () => {
  let redis: RedisServer;
  let fleet: Fleet;
  beforeAll(async () => {
    redis = await startRedisServer();
    fleet = await startFleet({ apis: 2, workers: 0, from: 'dist', env: { REDIS_URL: redis.url } });
    await untilApisHearRevocations(fleet);
  }, 120_000);
  afterAll(async () => {
    redis?.resume();
    await fleet?.close();
    await redis?.stop();
  });

  const call = (api: number, cookie: string, path: string, init: RequestInit = {}) =>
    fetch(`${fleet.apis[api]!.url}${path}`, {
      ...init,
      headers: { cookie, origin: fleet.appUrl, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      signal: AbortSignal.timeout(HANG_NOTICED_WITHIN_MS),
    });
  const ask = (api: number, cookie: string) =>
    call(api, cookie, '/api/ask', {
      method: 'POST',
      body: JSON.stringify({ ques: 'Jazz in Lisbon this week', web: '', timezone: 'Europe/Lisbon' }),
    });
  const used = async (userId: number) =>
    (await fleet.db.sql<{ n: number }[]>`select searches_used as n from accounts where user_id = ${userId}`)[0]!.n;

  it('ends a copied session on the other process after logout, and refuses asks with a 503 sentence at no cost', async () => {
    // A copied pair of cookies (session + proof), already remembered by both processes.
    const { cookie } = await createSignedInUser(fleet.db.sql);
    const first = await call(0, cookie, '/api/check-session');
    const pair = withSessionProof(cookie, first)!;
    for (const api of [0, 1]) expect((await call(api, pair, '/api/account/export')).status).toBe(200);
    const asker = await createSignedInUser(fleet.db.sql);
    const before = fleet.standins.gemini.state.requests;

    redis.pause();
    const out = await call(0, pair, '/api/logout');
    expect(await out.json()).toEqual({ message: 'You are now logged out.' });
    await until(
      'the other process to refuse the copied pair',
      async () => (await call(1, pair, '/api/account/export')).status === 401,
      HANG_NOTICED_WITHIN_MS,
    );

    for (const api of [0, 1]) {
      const res = await ask(api, asker.cookie);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toMatch(/^Event Finder cannot reach .* Please try again in a minute\.$/);
    }
    expect(await used(asker.user.id)).toBe(0);
    expect(fleet.standins.gemini.state.requests).toBe(before);
    for (const api of fleet.apis) {
      const metrics = await scrape(api);
      expect(metricSample(metrics, 'redis_outages_total{connection="requests"}')).toBeGreaterThanOrEqual(1);
      expect(metricSample(metrics, 'redis_up{connection="requests"}')).toBe(0);
    }

    redis.resume();
    await until('asks to be answered again', async () => (await ask(1, asker.cookie)).status === 200, 20_000);
    expect(await used(asker.user.id)).toBe(1);
    for (const api of [0, 1]) expect((await call(api, pair, '/api/account/export')).status).toBe(401);
  }, 120_000);
});
