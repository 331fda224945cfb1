import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { RUN_TIMER_JOB } from '../core/jobs';
import { schedulerId } from '../core/timers/scheduler';
import { createTimer } from '../core/timers/lifecycle';
import { startMetricsServer, type MetricsServer } from '../worker/metrics-server';
import { ask } from './support/ask';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';
import { enqueueScheduledFire } from './support/runs';

const ADMIN = { user: 'ops', password: 'scrape-secret' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The value of one sample line (`name{labels} value`), 0 when the series does not exist yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('Prometheus /metrics', () => {
  let stack: TestStack;
  let workerMetrics: MetricsServer;
  const scrape = async () => {
    const res = await fetch(`${stack.url}/metrics`, { headers: { authorization: basic(ADMIN.user, ADMIN.password) } });
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password } });
    workerMetrics = await startMetricsServer(0, ADMIN);
  });
  afterAll(async () => {
    await workerMetrics?.close();
    await stack?.close();
  });

  it('needs the operators’ basic auth', async () => {
    expect((await fetch(`${stack.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${stack.url}/metrics`, { headers: { authorization: basic(ADMIN.user, 'guess') } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toMatch(/http_requests_total/);
  });

  it('is not there at all without ADMIN_USER/ADMIN_PASSWORD', async () => {
    const app = createApp({ ...stack.deps, config: { ...stack.config, admin: null } });
    expect((await app.request('/metrics')).status).toBe(404);
  });

  it('counts requests by route pattern and status', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const ok = 'http_requests_total{method="GET",route="/api/timers",status="200"}';
    const refused = 'http_requests_total{method="GET",route="/api/timers",status="401"}';
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await fetch(`${stack.url}/api/timers`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${stack.url}/api/timers`)).status).toBe(401);
    await fetch(`${stack.url}/no/such/page/42`);
    const after = await scrape();
    expect(sample(after, ok) - sample(before, ok)).toBe(3);
    expect(sample(after, refused) - sample(before, refused)).toBe(1);
    // Unknown paths share one series instead of making one per path.
    expect(after).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/);
    expect(after).not.toMatch(/no\/such\/page/);
    expect(after).toMatch(/http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/timers"\}/);
  });

  it('reports queue depths read from Redis at scrape time', async () => {
    const { user } = await createSignedInUser(stack.db.sql);
    const delayed = 'queue_jobs{queue="timers",state="delayed"}';
    const before = sample(await scrape(), delayed);
    const created = await createTimer(stack.deps, user.id, dailyTimer());
    expect(created.ok).toBe(true);
    expect(sample(await scrape(), delayed)).toBe(before + 1);
  });

  it('an ask feeds the first-byte histogram, and its stream is counted open until it ends', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    stack.standins.gemini.setChunkDelay(100);
    const before = await scrape();
    const res = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    expect(res.status).toBe(200);
    const during = await scrape();
    expect(sample(during, 'ask_streams_open') - sample(before, 'ask_streams_open')).toBe(1);
    expect(sample(during, 'ask_first_byte_seconds_count') - sample(before, 'ask_first_byte_seconds_count')).toBe(1);
    await res.text();
    await until(
      'the stream to be counted closed',
      async () => sample(await scrape(), 'ask_streams_open') === sample(before, 'ask_streams_open'),
    );
    stack.standins.gemini.reset();
  });

  it("a worker's metrics server: auth, liveness, and run outcomes counted as jobs finish", async () => {
    const url = `http://127.0.0.1:${workerMetrics.port}`;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const scrapeWorker = async () =>
      (await fetch(`${url}/metrics`, { headers: { authorization: basic(ADMIN.user, ADMIN.password) } })).text();
    const succeeded = 'timer_runs_total{outcome="succeeded"}';
    const gone = 'timer_runs_total{outcome="timer-gone"}';
    const passes = 'reconcile_pass_seconds_count';
    const armed = 'reconcile_fixes_total{fix="armed"}';
    const before = await scrapeWorker();

    const { user } = await createSignedInUser(stack.db.sql);
    const created = await createTimer(stack.deps, user.id, dailyTimer({ time: '10:00' }));
    if (!created.ok) throw new Error('timer not created');
    // Lost, so the worker's start pass puts it back and counts the fix.
    await stack.deps.timersQueue.removeJobScheduler(schedulerId(created.timer.id));
    await stack.startWorker();
    const started = await scrapeWorker();
    expect(sample(started, passes) - sample(before, passes)).toBe(1);
    expect(sample(started, armed) - sample(before, armed)).toBe(1);

    const at = Date.UTC(2026, 4, 1, 8);
    await enqueueScheduledFire(stack.deps.timersQueue, created.timer.id, at);
    await stack.deps.timersQueue.add(RUN_TIMER_JOB, { timerId: 999_999_999 }, { jobId: 'no-such-timer' });
    const after = await until('both outcomes counted', async () => {
      const text = await scrapeWorker();
      return sample(text, succeeded) > sample(before, succeeded) && sample(text, gone) > sample(before, gone) ? text : null;
    });
    expect(sample(after, succeeded) - sample(before, succeeded)).toBe(1);
    expect(sample(after, gone) - sample(before, gone)).toBe(1);
  });
});
