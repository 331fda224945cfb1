import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimersQueue, type RunTimerJob, TIMERS_QUEUE_EVENT_STREAM_MAX_LEN } from '../core/jobs';
import { cronPattern, nextRunAt } from '../core/timers/schedule';
import { SchedulerUnavailableError, schedulerId } from '../core/timers/scheduler';
import { createTimer, createTimers } from '../core/timers/lifecycle';
import type { TimerInput } from '../core/timers/input';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';

const input = (i: number): TimerInput => ({
  scheduleType: i % 2 ? 'weekly' : 'daily',
  time: `${String(i % 24).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`,
  weekday: i % 2 ? 'Friday' : null,
  ques: `Jazz concerts #${i}`,
  web: '',
  timezone: i % 3 ? 'Europe/Berlin' : 'America/New_York',
});

describe('createTimers: many timers of one user at once (an import)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const active = async (userId: number) =>
    (await stack.db.sql<{ n: number }[]>`select count(*)::int as n from timers where user_id = ${userId} and deleted_at is null`)[0]!.n;
  const newUser = async () => (await createSignedInUser(stack.db.sql)).user.id;

  it('creates every timer with its row and its armed scheduler, in the order given', async () => {
    const userId = await newUser();
    const inputs = Array.from({ length: 12 }, (_, i) => input(i));
    const result = await createTimers(stack.deps, userId, inputs);
    if (!result.ok) throw new Error('refused');
    expect(result.timers.map((t) => t.ques)).toEqual(inputs.map((t) => t.ques));
    expect(await active(userId)).toBe(12);
    for (const [i, timer] of result.timers.entries()) {
      expect(timer).toMatchObject({ ...inputs[i], userId });
      const scheduler = (await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id)))!;
      expect(scheduler).toMatchObject({ pattern: cronPattern(inputs[i]!), tz: inputs[i]!.timezone });
      // The scheduler id names the timer; its hash and its jobs carry no data (docs/decisions/timers.md).
      expect(scheduler.template?.data).toBeUndefined();
      expect(scheduler.next).toBe(nextRunAt(inputs[i]!).getTime());
      expect(await stack.deps.timersQueue.getJobState(`repeat:${schedulerId(timer.id)}:${scheduler.next}`)).toBe('delayed');
    }
  });

  it("keeps the scheduler's hash compact in Redis for the longest time zone names, and its job's data empty", async () => {
    const userId = await newUser();
    const zones = Intl.supportedValuesOf('timeZone');
    const longest = zones.reduce((a, b) => (b.length > a.length ? b : a));
    const result = await createTimers(stack.deps, userId, [
      { ...input(1), timezone: longest },
      { ...input(2), timezone: 'America/Argentina/ComodRivadavia' },
    ]);
    if (!result.ok) throw new Error('refused');
    const prefix = `${stack.config.queuePrefix}:timers`;
    for (const timer of result.timers) {
      const key = `${prefix}:repeat:${schedulerId(timer.id)}`;
      const hash = await stack.redis.hgetall(key);
      expect(hash.tz).toBe(timer.timezone);
      // Redis keeps a hash as a listpack (about a third of a hash table's bytes) while every field and value
      // is at most 64 bytes, its default hash-max-listpack-value.
      for (const [field, value] of Object.entries(hash)) {
        expect(Buffer.byteLength(field), field).toBeLessThanOrEqual(64);
        expect(Buffer.byteLength(value), `${field}: ${value}`).toBeLessThanOrEqual(64);
      }
      expect(await stack.redis.object('ENCODING', key)).toBe('listpack');
      const next = (await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id)))!.next!;
      const job = await stack.redis.hgetall(`${prefix}:repeat:${schedulerId(timer.id)}:${next}`);
      expect(job.data).toBe('{}');
      expect(job.rjk).toBe(schedulerId(timer.id));
    }
    // The events stream is capped at TIMERS_QUEUE_EVENT_STREAM_MAX_LEN entries instead of BullMQ's 10,000.
    expect(await stack.redis.hget(`${prefix}:meta`, 'opts.maxLenEvents')).toBe(String(TIMERS_QUEUE_EVENT_STREAM_MAX_LEN));
  });

  it('creates none when they would pass the 20-timer limit, and says how many fit', async () => {
    const userId = await newUser();
    expect((await createTimers(stack.deps, userId, [input(1), input(2), input(3)])).ok).toBe(true);
    const schedulers = await stack.deps.timersQueue.getJobSchedulersCount();
    expect(
      await createTimers(
        stack.deps,
        userId,
        Array.from({ length: 18 }, (_, i) => input(i)),
      ),
    ).toEqual({
      ok: false,
      reason: 'limit',
      room: 17,
    });
    expect(await active(userId)).toBe(3);
    expect(await stack.deps.timersQueue.getJobSchedulersCount()).toBe(schedulers);
    expect(
      (
        await createTimers(
          stack.deps,
          userId,
          Array.from({ length: 17 }, (_, i) => input(i)),
        )
      ).ok,
    ).toBe(true);
    expect(await active(userId)).toBe(20);
  });

  it('holds the limit against one-by-one saves racing a bulk save', async () => {
    const userId = await newUser();
    const results = await Promise.all([
      createTimers(
        stack.deps,
        userId,
        Array.from({ length: 15 }, (_, i) => input(i)),
      ),
      ...Array.from({ length: 10 }, (_, i) => createTimer(stack.deps, userId, input(100 + i))),
    ]);
    expect(await active(userId)).toBeLessThanOrEqual(20);
    const made = results.reduce((n, r) => n + (!r.ok ? 0 : 'timers' in r ? r.timers.length : 1), 0);
    expect(await active(userId)).toBe(made);
  });

  it('leaves no row and no scheduler when Redis fails part-way through the batch', async () => {
    const userId = await newUser();
    // The real queue, except that the fourth scheduler of the batch cannot be written.
    let calls = 0;
    class FailingQueue extends Queue<RunTimerJob> {
      override async upsertJobScheduler(...args: Parameters<Queue<RunTimerJob>['upsertJobScheduler']>) {
        if (++calls === 4) throw new Error('READONLY You cannot write against a read only replica.');
        return super.upsertJobScheduler(...args);
      }
    }
    const queue = new FailingQueue(stack.deps.timersQueue.name, stack.deps.timersQueue.opts);
    const before = await stack.deps.timersQueue.getJobSchedulersCount();
    await expect(
      createTimers(
        { ...stack.deps, timersQueue: queue },
        userId,
        Array.from({ length: 6 }, (_, i) => input(i)),
      ),
    ).rejects.toThrow(SchedulerUnavailableError);
    expect(await active(userId)).toBe(0);
    expect(await stack.deps.timersQueue.getJobSchedulersCount()).toBe(before);
    await queue.close();
  });

  it('leaves no row when Redis cannot be reached at all', async () => {
    const userId = await newUser();
    const dead = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: null, lazyConnect: true });
    dead.on('error', () => {});
    const deadQueue = createTimersQueue(dead, stack.config.queuePrefix);
    deadQueue.on('error', () => {}); // the refused connection is the point of this test
    await expect(createTimers({ ...stack.deps, timersQueue: deadQueue }, userId, [input(1), input(2)])).rejects.toThrow(
      SchedulerUnavailableError,
    );
    expect(await active(userId)).toBe(0);
    dead.disconnect();
  });
});
