import { recountFailures } from '../db/timer-delivery';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RUN_TIMER_JOB } from '../core/jobs';
import { cronPattern, nextRunAt } from '../core/timers/schedule';
import { KEEP_COMPLETED, KEEP_FAILED, RUN_ATTEMPTS, RUN_BACKOFF_MS, TIMER_BACKOFF } from '../core/timers/job-policy';
import { schedulerId, upsertTimerScheduler } from '../core/timers/scheduler';
import { createTimer, deleteTimer } from '../core/timers/lifecycle';
import { listRuns, type TimerRun } from '../db/timer-runs';
import { createRunTimerProcessor } from '../worker/jobs/run-timer';
import { ABANDONED_MESSAGE, sweepAbandonedRuns } from '../core/timers/sweep-abandoned-runs';
import { startTimersWorker, type TimersWorker, type WorkerDeps } from '../worker/timers-worker';
import { reconcileClaimKey } from '../core/timers/reconcile-claim';
import { createTestRedis, deletePrefix } from '../dev/harness/redis';
import { holdSchedulersLock } from './support/schedulers-lock';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';
import { enqueueScheduledFire, fireScheduled } from './support/runs';

const daily = dailyTimer();
/** What a run says when Gemini answers 429 (core/gemini/errors.ts); BullMQ retries it. */
const BUSY = 'The AI service is handling too many requests right now. Please try again in a minute.';

describe('timers worker against real Redis and Postgres', () => {
  let stack: TestStack;
  const workers: TimersWorker[] = [];
  const connections: Redis[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close(true)));
    stack.standins.gemini.reset();
    stack.standins.gemini.setChunkDelay(0);
  });
  afterAll(async () => {
    for (const c of connections) c.disconnect();
    await stack?.close();
  });

  async function worker(extra: Partial<WorkerDeps> = {}, waitForStartPass = true): Promise<TimersWorker> {
    const connection = createTestRedis();
    connections.push(connection);
    const w = await startTimersWorker({
      config: stack.config,
      sql: stack.db.sql,
      connection,
      queue: stack.deps.timersQueue,
      gemini: stack.deps.gemini,
      logger: stack.deps.logger,
      reconcileEveryMs: 0,
      // Short locks so the killed-worker case recovers in seconds. Every worker of the queue uses them: the
      // stalled check runs at most once per interval per queue, whichever worker set the interval.
      lockDuration: 2000,
      stalledInterval: 1000,
      ...extra,
    });
    workers.push(w);
    // Most tests below look at what the start pass did; it runs beside the jobs, so wait for it.
    if (waitForStartPass) await w.startPass;
    return w;
  }

  async function newTimer(credits?: number) {
    const { user } = await createSignedInUser(stack.db.sql);
    if (credits !== undefined) await stack.db.sql`update accounts set searches_used = ${10 - credits} where user_id = ${user.id}`;
    const created = await createTimer(stack.deps, user.id, daily);
    if (!created.ok) throw new Error('timer not created');
    return { userId: user.id, timer: created.timer };
  }

  /** Enqueues one fire as the timer's scheduler would, with fast retries. */
  function fire(timerId: number, at: number, opts: { attempts?: number; backoff?: number } = {}) {
    return enqueueScheduledFire(stack.deps.timersQueue, timerId, at, {
      attempts: opts.attempts ?? 3,
      backoff: { type: 'exponential', delay: opts.backoff ?? 50 },
    });
  }

  const used = async (userId: number) =>
    (await stack.db.sql<{ n: number }[]>`select searches_used as n from accounts where user_id = ${userId}`)[0]!.n;

  const finishedRun = (timerId: number) =>
    until('a finished run', async () => {
      const runs = await listRuns(stack.db.sql, timerId);
      return runs.length && runs.every((r) => r.status !== 'running') ? runs : null;
    });

  it('runs a fire once, stores the answer and takes one credit', async () => {
    const { userId, timer } = await newTimer();
    await worker();
    const at = Date.UTC(2026, 2, 29, 7);
    const job = await fire(timer.id, at);
    const runs = await finishedRun(timer.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject<Partial<TimerRun>>({ status: 'succeeded', creditTaken: true, scheduledFor: new Date(at) });
    expect(runs[0]!.answer!.length).toBeGreaterThan(10);
    expect(runs[0]!.finishedAt).not.toBeNull();
    expect(await used(userId)).toBe(1);
    const [search] = await stack.db.sql`select status, timer_run_id, answer_chars from searches where user_id = ${userId}`;
    expect(search).toMatchObject({ status: 'answered', timer_run_id: String(runs[0]!.id), answer_chars: runs[0]!.answer!.length });
    await until('the job to complete', async () => (await job.getState()) === 'completed');

    // The same fire delivered again (e.g. re-added after a Redis failover) changes nothing.
    const requests = stack.standins.gemini.state.requests;
    const again = await stack.deps.timersQueue.add(RUN_TIMER_JOB, { timerId: timer.id }, { jobId: `again-${timer.id}`, prevMillis: at });
    await until('the duplicate to complete', async () => (await again.getState()) === 'completed');
    expect(await listRuns(stack.db.sql, timer.id)).toHaveLength(1);
    expect(await used(userId)).toBe(1);
    expect(stack.standins.gemini.state.requests).toBe(requests);
  });

  it("runs the scheduler's own job for its fire time and the scheduler arms the next fire", async () => {
    const { timer } = await newTimer();
    const queue = stack.deps.timersQueue;
    const first = (await queue.getJobScheduler(schedulerId(timer.id)))!.next!;
    await worker();
    const job = (await queue.getJob(`repeat:${schedulerId(timer.id)}:${first}`))!;
    await job.promote(); // fire now instead of at 09:00
    const [run] = await finishedRun(timer.id);
    expect(run).toMatchObject({ status: 'succeeded', scheduledFor: new Date(first) });
    const next = await until('the next fire', async () => {
      const n = (await queue.getJobScheduler(schedulerId(timer.id)))?.next;
      return n && n > first ? n : null;
    });
    expect(next).toBe(nextRunAt(timer, new Date(first)).getTime());
  });

  const busyOnBothTiers = () => {
    stack.standins.gemini.failNext({ when: 'before', status: 503 });
    stack.standins.gemini.failNext({ when: 'before', status: 503 });
  };

  it('retries a transient Gemini error with backoff: one run, one credit', async () => {
    const { userId, timer } = await newTimer();
    // Busy on the Flex tier and on the standard tier it falls back to: the attempt fails.
    busyOnBothTiers();
    const requests = stack.standins.gemini.state.requests;
    await worker();
    const job = await fire(timer.id, Date.UTC(2026, 3, 1, 7));
    await until('the job to complete', async () => (await job.getState()) === 'completed');
    const runs = await listRuns(stack.db.sql, timer.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).toBe('succeeded');
    // Flex and standard refused, then a Flex answer with its events in one call (docs/decisions/gemini-and-cost.md).
    expect(stack.standins.gemini.state.requests - requests).toBe(3);
    // BullMQ counts finished attempts: the failed one and the successful one.
    expect((await stack.deps.timersQueue.getJob(job.id!))!.attemptsMade).toBe(2);
    expect(await used(userId)).toBe(1);
  });

  it("a scheduler's own fire that fails transiently waits 30 s, then 60 s (the worker's timer backoff)", async () => {
    const { timer } = await newTimer();
    const queue = stack.deps.timersQueue;
    const first = (await queue.getJobScheduler(schedulerId(timer.id)))!.next!;
    const job = (await queue.getJob(`repeat:${schedulerId(timer.id)}:${first}`))!;
    // The job itself carries only what BullMQ reads from it; retention and delays are the worker's.
    expect(job.opts).toMatchObject({ attempts: RUN_ATTEMPTS, backoff: { type: TIMER_BACKOFF } });
    expect(job.opts.removeOnComplete).toBeUndefined();
    busyOnBothTiers();
    const w = await worker();
    expect(w.worker.opts).toMatchObject({ removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_FAILED });
    await job.promote();
    const retry = await until('the retry to be scheduled', async () => {
      const j = (await queue.getJob(job.id!))!;
      return j.attemptsMade === 1 && (await j.getState()) === 'delayed' ? j : null;
    });
    expect(retry.delay).toBe(RUN_BACKOFF_MS);
    expect((await listRuns(stack.db.sql, timer.id))[0]).toMatchObject({ status: 'running' });
    // The second failure doubles it, as BullMQ's built-in exponential backoff would.
    busyOnBothTiers();
    await retry.promote();
    const again = await until('the second retry', async () => {
      const j = (await queue.getJob(job.id!))!;
      return j.attemptsMade === 2 && (await j.getState()) === 'delayed' ? j : null;
    });
    expect(again.delay).toBe(2 * RUN_BACKOFF_MS);
  });

  it('does not retry a permanent error, records it and gives the credit back', async () => {
    const { userId, timer } = await newTimer();
    stack.standins.gemini.failNext({ when: 'before', status: 400 });
    await worker();
    const job = await fire(timer.id, Date.UTC(2026, 3, 2, 7));
    const [run] = await finishedRun(timer.id);
    expect(run).toMatchObject({ status: 'failed', creditTaken: false });
    expect(run!.error).toBeTruthy();
    await until('the job to fail', async () => (await job.getState()) === 'failed');
    expect((await stack.deps.timersQueue.getJob(job.id!))!.attemptsMade).toBe(1);
    expect(await used(userId)).toBe(0);
  });

  it('gives up an attempt that outlasts TIMER_RUN_TIMEOUT_SECONDS: the run fails with a sentence and its credit back', async () => {
    const { userId, timer } = await newTimer();
    // Gemini accepts the request and never answers within the deadline.
    stack.standins.gemini.setFirstChunkDelay(60_000);
    const aborted = stack.standins.gemini.state.abortedRequests;
    await worker({ config: { ...stack.config, worker: { ...stack.config.worker, runTimeoutMs: 300 } } });
    const job = await fire(timer.id, Date.UTC(2026, 3, 2, 8), { attempts: 1 });
    const [run] = await finishedRun(timer.id);
    expect(run).toMatchObject({
      status: 'failed',
      creditTaken: false,
      error: 'The AI service took too long to answer. Please try again in a few minutes.',
    });
    expect(await used(userId)).toBe(0);
    await until('the job to fail', async () => (await job.getState()) === 'failed');
    await until('Gemini to see the request given up', async () => stack.standins.gemini.state.abortedRequests === aborted + 1);
  });

  it('skips the run without calling Gemini when no credits are left', async () => {
    const { userId, timer } = await newTimer(0);
    const requests = stack.standins.gemini.state.requests;
    await worker();
    await fire(timer.id, Date.UTC(2026, 3, 3, 7));
    const [run] = await finishedRun(timer.id);
    expect(run).toMatchObject({ status: 'skipped', creditTaken: false });
    expect(run!.error).toBe('You have used all 10 searches of your free plan this month.');
    expect(stack.standins.gemini.state.requests).toBe(requests);
    expect(await used(userId)).toBe(10);
  });

  it('does nothing for a deleted timer', async () => {
    const { userId, timer } = await newTimer();
    await deleteTimer(stack.deps, userId, timer.id);
    await worker();
    const job = await fire(timer.id, Date.UTC(2026, 3, 4, 7));
    await until('the job to complete', async () => (await job.getState()) === 'completed');
    expect(await listRuns(stack.db.sql, timer.id)).toEqual([]);
    expect(await used(userId)).toBe(0);
  });

  it('a worker killed mid-job: the stalled job is picked up again and still yields exactly one run', async () => {
    const { userId, timer } = await newTimer();
    // The first worker's Gemini call is held, as if its process died in the middle of it.
    const gemini = stack.standins.gemini;
    gemini.holdAnswers();
    const dying = await worker();
    const job = await fire(timer.id, Date.UTC(2026, 3, 5, 7));
    await until('the first Gemini call', async () => gemini.held.length === 1);
    // Stops renewing the job's lock, like a killed process; the job stays active until found stalled.
    await dying.close(true);
    workers.splice(workers.indexOf(dying), 1);
    expect(await used(userId)).toBe(1);
    gemini.holdAnswers(false);

    await worker();
    await until('the job to complete', async () => (await job.getState()) === 'completed');
    const runs = await listRuns(stack.db.sql, timer.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).toBe('succeeded');
    expect(await used(userId)).toBe(1);
  });

  it('closing (SIGTERM) lets the running job finish', async () => {
    const { timer } = await newTimer();
    stack.standins.gemini.setChunkDelay(150);
    const w = await worker();
    const job = await fire(timer.id, Date.UTC(2026, 3, 6, 7));
    await until('the run to start', async () => (await listRuns(stack.db.sql, timer.id)).length === 1);
    await w.close();
    const [run] = await listRuns(stack.db.sql, timer.id);
    expect(run!.status).toBe('succeeded');
    expect(await job.getState()).toBe('completed');
  });

  /**
   * Two executions of one fire (a stalled job redelivered), each held at its Gemini call until released: the
   * one released first answers 'Two AI conferences.', and `fail` makes Gemini refuse it as busy (429, retried).
   */
  function twoExecutions(timerId: number, at: number) {
    const gemini = stack.standins.gemini;
    gemini.holdAnswers();
    // A timer run asks for its answer with its events, as JSON (docs/decisions/gemini-and-cost.md).
    gemini.answerNext(JSON.stringify({ answer: 'Two AI conferences.', events: [] }));
    const gates = {
      get length() {
        return gemini.held.length;
      },
      at: (i: number) => ({ release: (fail: boolean) => gemini.held[i]!.release(fail ? 429 : undefined) }),
    };
    const processJob = createRunTimerProcessor({
      sql: stack.db.sql,
      gemini: stack.deps.gemini,
      // Standard tier: a busy answer then fails the attempt, not a Flex request that is asked again.
      config: { ...stack.config, gemini: { ...stack.config.gemini, timerTier: 'standard' } },
      logger: stack.deps.logger,
      timersQueue: stack.deps.timersQueue,
      deliveriesQueue: stack.deliveriesQueue,
    });
    // The same job as both workers see it, by default on its last attempt.
    const start = (attemptsMade = 2) => fireScheduled(stack, timerId, { at, attempts: 3, attemptsMade, processor: processJob });
    return { gates, start };
  }

  it('two executions of one fire (a stalled job redelivered): a late failure does not undo the success', async () => {
    const { userId, timer } = await newTimer();
    const { gates, start } = twoExecutions(timer.id, Date.UTC(2026, 3, 7, 7));
    const first = start();
    await until('the first search', async () => gates.length === 1);
    const second = start();
    await until('the second search', async () => gates.length === 2);
    gates.at(0).release(false);
    expect(await first).toBe('succeeded');
    gates.at(1).release(true);
    await expect(second).rejects.toThrow(BUSY);
    const runs = await listRuns(stack.db.sql, timer.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', creditTaken: true, answer: 'Two AI conferences.', error: null });
    expect(await used(userId)).toBe(1);
  });

  it('two executions of one fire: an early failure that gave the credit back does not make the success free', async () => {
    const { userId, timer } = await newTimer();
    const { gates, start } = twoExecutions(timer.id, Date.UTC(2026, 3, 8, 7));
    // The first execution fails on an attempt BullMQ will retry: the run stays open and its credit goes back.
    const first = start(0);
    await until('the first search', async () => gates.length === 1);
    const second = start();
    await until('the second search', async () => gates.length === 2);
    gates.at(0).release(true);
    await expect(first).rejects.toThrow(BUSY);
    gates.at(1).release(false);
    expect(await second).toBe('succeeded');
    const runs = await listRuns(stack.db.sql, timer.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', creditTaken: true, answer: 'Two AI conferences.' });
    expect(await used(userId)).toBe(1);
  });

  it('reconcile re-arms a scheduler that stopped (BullMQ could not compute its next fire)', async () => {
    const { timer } = await newTimer();
    const queue = stack.deps.timersQueue;
    const id = schedulerId(timer.id);
    const armed = (await queue.getJobScheduler(id))!.next!;
    // What BullMQ leaves behind: the scheduler still names its last fire, taken an hour ago, and no job waits.
    const taken = Math.floor((Date.now() - 3600_000) / 60_000) * 60_000;
    await stack.redis.zadd(`${stack.config.queuePrefix}:timers:repeat`, taken, id);
    await (await queue.getJob(`repeat:${id}:${armed}`))!.remove();
    expect((await queue.getJobScheduler(id))!.next).toBe(taken);

    const w = await worker();
    const scheduler = (await queue.getJobScheduler(id))!;
    expect(scheduler.next).toBe(nextRunAt(timer).getTime());
    expect(await queue.getJobState(`repeat:${id}:${scheduler.next}`)).toBe('delayed');
    expect(await w.reconcile()).toEqual({ upserted: 0, removed: 0 });
  });

  it('reconcile rebuilds lost schedulers and removes orphans (Redis lost its data)', async () => {
    const a = await newTimer();
    const b = await newTimer();
    await deleteTimer(stack.deps, b.userId, b.timer.id);
    // Simulate FLUSHALL on this test's own queue prefix only: other test files share the Redis server.
    await deletePrefix(stack.redis, stack.config.queuePrefix);
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(a.timer.id))).toBeUndefined();
    // A scheduler left over for a timer that no longer exists.
    await upsertTimerScheduler(stack.deps.timersQueue, { ...daily, id: b.timer.id });

    const w = await worker();
    const scheduler = await stack.deps.timersQueue.getJobScheduler(schedulerId(a.timer.id));
    expect(scheduler).toMatchObject({ pattern: cronPattern(daily), tz: 'Europe/Berlin' });
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(b.timer.id))).toBeUndefined();
    const delayed = await stack.deps.timersQueue.getDelayed();
    expect(delayed.some((j) => j.id === `repeat:${schedulerId(a.timer.id)}:${scheduler!.next}`)).toBe(true);
    // A second pass finds nothing to do.
    expect(await w.reconcile()).toEqual({ upserted: 0, removed: 0 });
  });
  it('the periodic pass, claimed by one worker of two each period, restores a scheduler lost after start', async () => {
    const { timer } = await newTimer();
    await worker({ reconcileEveryMs: 300 });
    await worker({ reconcileEveryMs: 300 });
    await stack.deps.timersQueue.removeJobScheduler(schedulerId(timer.id));
    const restored = await until('the periodic pass', () => stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id)));
    expect(restored).toMatchObject({ pattern: cronPattern(daily), next: nextRunAt(timer).getTime() });
  });

  it('workers started together run one start pass: the others find the period claimed', async () => {
    const { timer } = await newTimer();
    await stack.redis.del(reconcileClaimKey(stack.config.queuePrefix));
    await stack.deps.timersQueue.removeJobScheduler(schedulerId(timer.id));
    const started = await Promise.all([1, 2, 3].map(() => worker({ reconcileEveryMs: 60_000 })));
    const passes = await Promise.all(started.map((w) => w.startPass));
    expect(passes.filter((p) => p === 'claimed-elsewhere')).toHaveLength(2);
    expect(passes.filter((p) => typeof p === 'object')).toEqual([{ upserted: 1, removed: 0 }]);
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id))).toMatchObject({ pattern: cronPattern(daily) });
    await stack.redis.del(reconcileClaimKey(stack.config.queuePrefix));
  });

  it('takes jobs while its start pass is still going (the pass runs beside the jobs, not before them)', async () => {
    const { timer } = await newTimer();
    // The start pass will find this scheduler missing, and wait for the lock to put it back.
    await stack.deps.timersQueue.removeJobScheduler(schedulerId(timer.id));
    const release = await holdSchedulersLock(stack.db.sql);

    const w = await worker({}, false);
    let passDone = false;
    void w.startPass.then(() => {
      passDone = true;
    });
    await fire(timer.id, Date.UTC(2026, 3, 7, 7));
    const [run] = await finishedRun(timer.id);
    expect(run).toMatchObject({ status: 'succeeded' });
    expect(passDone).toBe(false);

    await release();
    expect(await w.startPass).toEqual({ upserted: 1, removed: 0 });
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id))).toMatchObject({ pattern: cronPattern(daily) });
  });

  it('reconcile replaces a scheduler of the older shape (timer-<id>, options in every job) by the current one', async () => {
    const { timer } = await newTimer();
    const queue = stack.deps.timersQueue;
    await queue.removeJobScheduler(schedulerId(timer.id));
    const legacy = `timer-${timer.id}`;
    await queue.upsertJobScheduler(
      legacy,
      { pattern: cronPattern(timer), tz: timer.timezone },
      {
        name: RUN_TIMER_JOB,
        data: { timerId: timer.id },
        opts: { attempts: 4, backoff: { type: 'exponential', delay: 30_000 }, removeOnComplete: { age: 604800, count: 1000 } },
      },
    );
    const w = await worker();
    expect(await queue.getJobScheduler(legacy)).toBeUndefined();
    const scheduler = (await queue.getJobScheduler(schedulerId(timer.id)))!;
    expect(scheduler.next).toBe(nextRunAt(timer).getTime());
    expect(await queue.getJobState(`repeat:${legacy}:${scheduler.next}`)).toBe('unknown');
    expect(await queue.getJobState(`repeat:${schedulerId(timer.id)}:${scheduler.next}`)).toBe('delayed');
    expect(await w.reconcile()).toEqual({ upserted: 0, removed: 0 });
  });

  it('reconcile re-creates a scheduler whose jobs are still `run-timer` with {timerId} (the shape before jobs carried no data); such fires still run', async () => {
    const { timer } = await newTimer();
    const queue = stack.deps.timersQueue;
    const id = schedulerId(timer.id);
    await queue.upsertJobScheduler(
      id,
      { pattern: cronPattern(timer), tz: timer.timezone },
      { name: 'run-timer', data: { timerId: timer.id }, opts: { attempts: RUN_ATTEMPTS, backoff: { type: TIMER_BACKOFF } } },
    );
    const next = (await queue.getJobScheduler(id))!.next!;
    expect((await queue.getJob(`repeat:${id}:${next}`))!.data).toEqual({ timerId: timer.id });

    const w = await worker();
    const scheduler = (await queue.getJobScheduler(id))!;
    expect(scheduler).toMatchObject({ name: RUN_TIMER_JOB, next });
    expect(scheduler.template?.data).toBeUndefined();
    const job = (await queue.getJob(`repeat:${id}:${next}`))!;
    expect(job).toMatchObject({ name: RUN_TIMER_JOB, data: {} });
    expect(job.opts).toMatchObject({ attempts: RUN_ATTEMPTS, backoff: { type: TIMER_BACKOFF } });
    expect(await w.reconcile()).toEqual({ upserted: 0, removed: 0 });

    // A fire of the old layout (`run-timer`, data {timerId}) already queued runs on the current worker too.
    const at = Date.UTC(2026, 4, 6, 7);
    await queue.add('run-timer', { timerId: timer.id }, { jobId: `repeat:${id}:${at}`, prevMillis: at });
    const [run] = await finishedRun(timer.id);
    expect(run).toMatchObject({ status: 'succeeded', scheduledFor: new Date(at) });
  });

  it('ends a run abandoned by a stopped worker once, with a sentence and its credit back', async () => {
    const { userId, timer } = await newTimer(5);
    await stack.db.sql`update accounts set searches_used = searches_used + 2 where user_id = ${userId}`;
    const [old] = await stack.db.sql<{ id: string }[]>`
      insert into timer_runs (timer_id, scheduled_for, status, credit_taken, started_at)
      values (${timer.id}, now() - interval '3 hours', 'running', true, now() - interval '3 hours') returning id`;
    await stack.db.sql`
      insert into timer_runs (timer_id, scheduled_for, status, credit_taken, started_at)
      values (${timer.id}, now() - interval '1 minute', 'running', true, now() - interval '1 minute')`;

    expect(await sweepAbandonedRuns(stack.db.sql)).toBe(1);
    expect(await sweepAbandonedRuns(stack.db.sql)).toBe(0);
    const runs = await listRuns(stack.db.sql, timer.id);
    const abandoned = runs.find((r) => r.id === Number(old!.id))!;
    expect(abandoned).toMatchObject({ status: 'failed', creditTaken: false, error: ABANDONED_MESSAGE });
    expect(runs.filter((r) => r.status === 'running')).toHaveLength(1);
    expect(await used(userId)).toBe(6);
    // A stopped worker is not the timer's failure: it does not count toward auto-pause.
    expect(await recountFailures(stack.db.sql, timer.id)).toBe(0);
    await stack.db.sql`update timer_runs set not_the_timers_fault = false where id = ${old!.id}`;
    expect(await recountFailures(stack.db.sql, timer.id)).toBe(1);
  });
});
