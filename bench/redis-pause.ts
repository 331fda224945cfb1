import { performance } from 'node:perf_hooks';
import { startFleet, untilApisHearRevocations } from '../dev/harness/fleet';
import { withSessionProof } from '../dev/harness/session-proof-cookie';
import { startRedisServer } from '../dev/harness/redis-server';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import type { BenchResult, Row } from './lib/report';

/** The goal: once Redis hangs, a logout holds on every api process and asks are refused within this. */
const GOAL_MS = 5_000;
/** Past this a figure is taken as never reached. */
const GIVE_UP_MS = 60_000;
const RUNS = 3;

export const REDIS_PAUSE_METHOD =
  'Two built api processes (dist/server/api.js) share a redis-server the bench started; a signed-in user’s cookie pair ' +
  '(session + proof) is known to both. The Redis process is stopped (SIGSTOP: connections stay open, nothing is ' +
  'answered), the pair logs out on the first process, and the second is asked with it every 50 ms until it answers ' +
  `401 (time from the logout); then another user asks on each process (time to the 503). Redis is resumed and the ` +
  `processes answer again before the next run; median of ${RUNS} runs.`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function redisPauseRows(): Promise<Row[]> {
  const redis = await startRedisServer();
  const fleet = await startFleet({ apis: 2, workers: 0, from: 'dist', env: { REDIS_URL: redis.url } });
  const call = (api: number, cookie: string, path: string, init: RequestInit = {}) =>
    fetch(`${fleet.apis[api]!.url}${path}`, {
      ...init,
      headers: { cookie, origin: fleet.appUrl, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      signal: AbortSignal.timeout(GIVE_UP_MS),
    });
  const ask = (api: number, cookie: string) =>
    call(api, cookie, '/api/ask', {
      method: 'POST',
      body: JSON.stringify({ ques: 'Jazz in Lisbon this week', web: '', timezone: 'Europe/Lisbon' }),
    });
  try {
    await untilApisHearRevocations(fleet);
    const logoutHeld: number[] = [];
    const askRefused: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { cookie } = await createSignedInUser(fleet.db.sql);
      const first = await call(0, cookie, '/api/check-session');
      const pair = withSessionProof(cookie, first)!;
      for (const api of [0, 1]) await call(api, pair, '/api/account/export');
      const asker = await createSignedInUser(fleet.db.sql);

      redis.pause();
      const loggedOut = performance.now();
      await call(0, pair, '/api/logout');
      await until(
        'the other process to refuse the copied pair',
        async () => (await call(1, pair, '/api/account/export')).status === 401,
        GIVE_UP_MS,
      );
      logoutHeld.push(performance.now() - loggedOut);
      for (const api of [0, 1]) {
        const asked = performance.now();
        const res = await ask(api, asker.cookie);
        await res.text();
        askRefused.push(res.status === 503 ? performance.now() - asked : GIVE_UP_MS);
      }
      redis.resume();
      await until('asks to be answered again', async () => (await call(1, asker.cookie, '/api/check-session')).ok, GIVE_UP_MS);
      await untilApisHearRevocations(fleet);
    }
    const row = (metric: string, values: number[]): Row => {
      const value = Math.round(median(values));
      return { metric, value, unit: 'ms', goal: `≤ ${GOAL_MS} ms`, met: value <= GOAL_MS };
    };
    return [
      row('Redis paused: logout to the other process refusing the copied session', logoutHeld),
      row('Redis paused: an ask to its 503 (both processes)', askRefused),
    ];
  } finally {
    redis.resume();
    await fleet.close();
    await redis.stop();
  }
}

export async function run(): Promise<BenchResult[]> {
  return [{ name: 'redis-pause', method: REDIS_PAUSE_METHOD, rows: await redisPauseRows() }];
}
