import { expect } from 'vitest';
import { type TimerRunReply, timerRunsReplySchema } from '../../core/contract/event-replies';
import { until } from '../../dev/harness/wait';

/**
 * The page's own calls as a signed-in browser makes them (its cookie, its Origin), for tests that drive timers
 * through the api: `session` is read at each call, so a suite can make it before its stack is up.
 */
export function pageCalls(session: () => { url: string; cookie: string }) {
  const call = (method: string, path: string, body?: unknown, cookie = session().cookie) => {
    const { url } = session();
    return fetch(`${url}${path}`, {
      method,
      headers: { cookie, origin: url, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  };

  /** A timer's runs, read through the contract's schema as the page reads them. */
  const runs = async (timerId: number): Promise<TimerRunReply[]> =>
    timerRunsReplySchema.parse(await (await call('GET', `/api/timers/${timerId}/runs`)).json());

  /** Run now, then wait for the worker to end that run (whatever its status). */
  async function runNow(timerId: number): Promise<TimerRunReply> {
    const res = await call('POST', `/api/timers/${timerId}/run`);
    expect(res.status).toBe(202);
    const { run_id } = (await res.json()) as { run_id: number };
    return until('the run to end', async () => (await runs(timerId)).find((r) => r.id === run_id && r.status !== 'running'), 30_000);
  }

  return { call, runs, runNow };
}
