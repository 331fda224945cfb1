import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_TIMER_JOB, type RunTimerJob } from '../core/jobs';
import { createRedis, type RedisClient } from '../core/redis/client';
import { timerRunLimiter } from '../core/timers/run-limit';
import { schedulerId } from '../core/timers/scheduler';
import { createTimer } from '../core/timers/lifecycle';
import { startTimersWorker, type TimersWorker } from '../worker/timers-worker';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';

const PER_MINUTE = 600;
const RUSH = 35;

describe('TIMER_RUNS_PER_MINUTE: one rate for all workers together', () => {
  let stack: TestStack;
  const workers: TimersWorker[] = [];
  const connections: RedisClient[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ env: { TIMER_RUNS_PER_MINUTE: String(PER_MINUTE), WORKER_CONCURRENCY: '20' } });
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close(true)));
    for (const c of connections) c.disconnect();
    await stack?.close();
  });

  it('a rush of fires on one minute, taken by two workers, starts no faster than the configured rate', async () => {
    const { max, duration } = timerRunLimiter(PER_MINUTE);
    expect({ max, duration }).toEqual({ max: 10, duration: 1000 });
    const timers = await Promise.all(
      Array.from({ length: RUSH }, async () => {
        const { user } = await createSignedInUser(stack.db.sql);
        const created = await createTimer(stack.deps, user.id, dailyTimer());
        if (!created.ok) throw new Error('timer not created');
        return created.timer.id;
      }),
    );
    // Two worker processes' worth of workers, each allowed 20 at once: concurrency alone would start all at once.
    for (let i = 0; i < 2; i++) {
      const connection = createRedis(stack.config, 'queue');
      connections.push(connection);
      workers.push(
        await startTimersWorker({
          config: stack.config,
          sql: stack.db.sql,
          connection,
          queue: stack.deps.timersQueue,
          gemini: stack.deps.gemini,
          logger: stack.deps.logger,
          reconcileEveryMs: 0,
        }),
      );
    }
    // Every timer fires at 09:00 at once, as their schedulers' jobs would.
    const at = Date.UTC(2026, 5, 1, 7);
    const jobs: Job<RunTimerJob>[] = await stack.deps.timersQueue.addBulk(
      timers.map((timerId) => ({
        name: RUN_TIMER_JOB,
        data: { timerId },
        opts: { jobId: `repeat:${schedulerId(timerId)}:${at}`, prevMillis: at },
      })),
    );

    const runs = await until(
      `all ${RUSH} runs to finish`,
      async () => {
        const rows = await stack.db.sql<{ started_at: Date; status: string }[]>`
          select started_at, status from timer_runs where scheduled_for = ${new Date(at)} order by started_at`;
        return rows.length === RUSH && rows.every((r) => r.status !== 'running') ? rows : null;
      },
      30_000,
    );
    expect(runs.map((r) => r.status)).toEqual(Array(RUSH).fill('succeeded'));

    // 35 starts at 10 per window need 4 windows, so the last started at least 3 windows after the first.
    // The recorded start comes a few ms after BullMQ's; the allowance covers that, not the rate.
    const starts = runs.map((r) => r.started_at.getTime());
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual((Math.ceil(RUSH / max) - 1) * duration - 250);

    // BullMQ's own start times (taken where it counts the limit): no second holds more than two windows' worth.
    const processedOn = (await Promise.all(jobs.map(async (j) => (await stack.deps.timersQueue.getJob(j.id!))!.processedOn!))).sort(
      (a, b) => a - b,
    );
    for (const [i, t] of processedOn.entries()) {
      const inSecond = processedOn.slice(i).filter((u) => u < t + duration).length;
      expect(inSecond).toBeLessThanOrEqual(2 * max);
    }
    expect(processedOn.at(-1)! - processedOn[0]!).toBeGreaterThanOrEqual((Math.ceil(RUSH / max) - 1) * duration - 50);
  });
});
