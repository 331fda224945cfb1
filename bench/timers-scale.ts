import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createTimersQueue, RUN_TIMER_JOB } from '../core/jobs';
import { schedulerId, upsertTimerSchedulers } from '../core/timers/scheduler';
import { reconcileSchedulers } from '../core/timers/reconcile';
import { createTimer, createTimers } from '../core/timers/lifecycle';
import type { Timer } from '../db/timers';
import { parseTimerInput, type TimerInput } from '../core/timers/input';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { startPrivateRedis } from './lib/redis-server';
import { percentile, type BenchResult, type Row } from './lib/report';
import { FIGURES } from './lib/figures';

const TIMERS = 100_000;
const PER_USER = 20;
const CREATE_CONCURRENCY = 64;
/** createTimer one at a time, the API's path, for comparison with the bulk path (same run). */
const ONE_BY_ONE = 5_000;
/** The Redis setting docs/operations.md recommends: keeps each timer's next-job hash in Redis's compact encoding. */
const RECOMMENDED_REDIS = ['--hash-max-listpack-value', '512'];
const THROUGHPUT_RUNS = 2_000;
const SAME_MINUTE = 1_000;
const WORKER_CONCURRENCY = '50';

function input(i: number, time = `${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`): TimerInput {
  const check = parseTimerInput({
    scheduleType: i % 2 ? 'weekly' : 'daily',
    time,
    weekday: 'Wednesday',
    ques: `Kubernetes meetups near me #${i}`,
    web: '',
    timezone: i % 3 ? 'Europe/Berlin' : 'America/New_York',
  });
  if (!check.ok) throw new Error(check.message);
  return check.input;
}

/** Users in bulk (20 timers each at most); all on pro with credits to spare. */
async function makeUsers(stack: TestStack, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, () => createSignedInUser(stack.db.sql).then((u) => u.user.id)),
    );
    ids.push(...batch);
  }
  await stack.db.sql`update accounts set tier = 'pro'`;
  return ids;
}

/** MEMORY USAGE of a key, exact (SAMPLES 0: every field of a hash table counted, not five), and its encoding. */
async function keyBytes(redis: TestStack['redis'], key: string): Promise<{ bytes: number; encoding: string }> {
  const bytes = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
  return { bytes, encoding: String(await redis.object('ENCODING', key)) };
}

/**
 * Where one timer's bytes go: its scheduler hash, its next job's hash, and its shares of the queue's delayed and
 * repeat sorted sets and of the (capped) events stream.
 */
async function perTimerLayout(stack: TestStack, timers: Timer[]): Promise<Row[]> {
  const prefix = `${stack.config.queuePrefix}:timers`;
  const sample = timers[1]!;
  const next = (await stack.deps.timersQueue.getJobScheduler(schedulerId(sample.id)))!.next!;
  const scheduler = await keyBytes(stack.redis, `${prefix}:repeat:${schedulerId(sample.id)}`);
  const job = await keyBytes(stack.redis, `${prefix}:repeat:${schedulerId(sample.id)}:${next}`);
  const share = async (key: string) => (await keyBytes(stack.redis, key)).bytes / timers.length;
  return [
    { metric: `  of which the scheduler hash (${scheduler.encoding})`, value: scheduler.bytes, unit: 'B' },
    { metric: `  of which its next job's hash (${job.encoding})`, value: job.bytes, unit: 'B' },
    { metric: '  of which its member of the delayed sorted set', value: await share(`${prefix}:delayed`), unit: 'B' },
    { metric: '  of which its member of the repeat sorted set', value: await share(`${prefix}:repeat`), unit: 'B' },
    { metric: '  of which its share of the events stream', value: await share(`${prefix}:events`), unit: 'B' },
  ];
}

async function redisUsedBytes(redis: TestStack['redis']): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

/** createTimer, the API's path: one timer per transaction and scheduler upsert, CREATE_CONCURRENCY at once. */
async function createOneByOne(stack: TestStack, users: number[], count: number, make: (i: number) => TimerInput): Promise<number[]> {
  const ids: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CREATE_CONCURRENCY }, async () => {
      for (let i = next++; i < count; i = next++) {
        const result = await createTimer(stack.deps, users[Math.floor(i / PER_USER)]!, make(i));
        if (!result.ok) throw new Error('timer limit reached in the benchmark');
        ids.push(result.timer.id);
      }
    }),
  );
  return ids;
}

/** createTimers, the bulk path: each user's timers in one call, CREATE_CONCURRENCY users at once. */
async function createMany(stack: TestStack, users: number[], count: number, make: (i: number) => TimerInput): Promise<Timer[]> {
  const made: Timer[] = [];
  let next = 0;
  const userCount = Math.ceil(count / PER_USER);
  await Promise.all(
    Array.from({ length: CREATE_CONCURRENCY }, async () => {
      for (let u = next++; u < userCount; u = next++) {
        const inputs = Array.from({ length: Math.min(PER_USER, count - u * PER_USER) }, (_, k) => make(u * PER_USER + k));
        const result = await createTimers(stack.deps, users[u]!, inputs);
        if (!result.ok) throw new Error('timer limit reached in the benchmark');
        made.push(...result.timers);
      }
    }),
  );
  return made;
}

/** Redis memory per timer on a redis-server of its own with the setting docs/operations.md recommends: the same schedulers. */
async function bytesPerTimerRecommended(stack: TestStack, timers: Timer[]): Promise<number> {
  const server = await startPrivateRedis(RECOMMENDED_REDIS);
  const queue = createTimersQueue(server.redis, stack.config.queuePrefix);
  try {
    await queue.waitUntilReady();
    const before = await redisUsedBytes(server.redis);
    for (let i = 0; i < timers.length; i += 1000) await upsertTimerSchedulers(queue, timers.slice(i, i + 1000));
    return ((await redisUsedBytes(server.redis)) - before) / timers.length;
  } finally {
    await queue.close();
    await server.stop();
  }
}

interface PassAlone {
  seconds: number;
  upserted: number;
  /** The most this process's live heap grew over its size before the pass, each sample taken after a full GC. */
  heapGrowthBytes: number;
}

/** How often the pass's live heap is sampled (each sample forces a full GC, so not too often). */
const HEAP_SAMPLE_MS = 250;

/** A worker's periodic reconcile pass on its own; it runs in this process, so the live heap shows what it holds. */
async function reconcileAlone(stack: TestStack): Promise<PassAlone> {
  // make bench runs with --expose-gc; without it the samples include garbage.
  const liveHeap = () => {
    global.gc?.();
    return process.memoryUsage().heapUsed;
  };
  const heapBefore = liveHeap();
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, liveHeap());
  }, HEAP_SAMPLE_MS);
  try {
    const start = performance.now();
    const { upserted } = await reconcileSchedulers(stack.db.sql, stack.redis, stack.deps.timersQueue);
    return { seconds: (performance.now() - start) / 1000, upserted, heapGrowthBytes: heapPeak - heapBefore };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * What a person meets while a pass runs: each save of a timer (a create, then its delete) made during a second
 * pass, one after another, by a process of its own (bench/lib/timer-saver-child.ts), as an api process would
 * make it: its own Node event loop, Postgres pool and Redis connection.
 */
async function savesDuringReconcile(stack: TestStack, userId: number): Promise<number[]> {
  const saver = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/timer-saver-child.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: stack.db.url,
      REDIS_URL: stack.config.redisUrl,
      QUEUE_PREFIX: stack.config.queuePrefix,
      SAVER_USER_ID: String(userId),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: saver.stdout! })[Symbol.asyncIterator]();
  let from: number;
  let to: number;
  try {
    if ((await lines.next()).value !== 'ready') throw new Error('the saver did not start');
    from = Date.now();
    await reconcileSchedulers(stack.db.sql, stack.redis, stack.deps.timersQueue);
    to = Date.now();
  } finally {
    saver.kill('SIGTERM'); // it prints its saves and exits
  }
  const saves = JSON.parse((await lines.next()).value as string) as [number, number][];
  const during = saves.filter(([at]) => at >= from && at < to).map(([, ms]) => ms);
  if (!during.length) throw new Error('no save went through during the pass');
  return during;
}

export async function scale(): Promise<Row[]> {
  const stack = await startTestStack();
  try {
    const users = await makeUsers(stack, (TIMERS + ONE_BY_ONE) / PER_USER);
    const oneStart = performance.now();
    await createOneByOne(stack, users.slice(TIMERS / PER_USER), ONE_BY_ONE, (i) => input(i));
    const oneSeconds = (performance.now() - oneStart) / 1000;
    await stack.deps.timersQueue.obliterate({ force: true });
    await stack.db.sql`update timers set deleted_at = now()`;
    // Obliterate removed the queue's meta hash too, whose events-stream cap BullMQ then re-creates at its default
    // (10,000); a queue opening writes ours again, as every api and worker process does when it starts.
    const reopened = createTimersQueue(stack.redis, stack.config.queuePrefix);
    await reopened.getVersion(); // resolves once the queue has written its meta hash
    await reopened.close();

    const before = await redisUsedBytes(stack.redis);
    const start = performance.now();
    const timers = await createMany(stack, users, TIMERS, (i) => input(i));
    const seconds = (performance.now() - start) / 1000;
    const after = await redisUsedBytes(stack.redis);
    const schedulers = await stack.deps.timersQueue.getJobSchedulersCount();
    const layout = await perTimerLayout(stack, timers);
    // A worker's periodic pass over all of them, every one already armed. The saver is a user whose one-by-one
    // timers were deleted above, so has room.
    const pass = await reconcileAlone(stack);
    const saveMs = await savesDuringReconcile(stack, users.at(-1)!);
    const longestSaveMs = Math.max(...saveMs);
    const recommended = await bytesPerTimerRecommended(stack, timers);
    return [
      {
        metric: `createTimer one at a time (${CREATE_CONCURRENCY} at once), ${ONE_BY_ONE} timers`,
        value: ONE_BY_ONE / oneSeconds,
        unit: 'timers/s',
      },
      {
        metric: `create ${TIMERS} timers (createTimers per user, ${CREATE_CONCURRENCY} users at once)`,
        value: seconds,
        unit: 's',
        goal: '< 60 s',
        figure: FIGURES.creation,
        met: seconds < 60,
      },
      { metric: 'timers created per second (createTimers)', value: TIMERS / seconds, unit: 'timers/s' },
      { metric: 'job schedulers in Redis afterwards', value: schedulers, unit: '', goal: `= ${TIMERS}` },
      {
        metric: 'Redis memory per timer (scheduler + next job), default Redis',
        value: (after - before) / TIMERS,
        unit: 'B',
        goal: '≤ 1024 B',
        figure: FIGURES.redis,
        met: (after - before) / TIMERS <= 1024,
      },
      ...layout,
      {
        metric: `Redis memory per timer, Redis with ${RECOMMENDED_REDIS.join(' ')}`,
        value: recommended,
        unit: 'B',
        goal: '≤ 1024 B',
        met: recommended <= 1024,
      },
      { metric: `reconcile pass over ${TIMERS} armed timers`, value: pass.seconds, unit: 's' },
      { metric: 'schedulers the pass had to re-create', value: pass.upserted, unit: '', goal: '= 0' },
      {
        metric: `reconcile pass, live heap growth (after a full GC every ${HEAP_SAMPLE_MS} ms, peak over before)`,
        value: pass.heapGrowthBytes / 2 ** 20,
        unit: 'MiB',
      },
      {
        metric: 'timer saves (create + delete) by another process, one after another, during a second pass',
        value: saveMs.length,
        unit: '',
      },
      { metric: 'median of those saves', value: percentile(saveMs, 50), unit: 'ms' },
      {
        metric: 'longest of those saves',
        value: longestSaveMs,
        unit: 'ms',
        goal: '≤ 250 ms',
        met: longestSaveMs <= 250,
      },
    ];
  } finally {
    await stack.close();
  }
}

async function waitForRuns(stack: TestStack, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from timer_runs where status <> 'running'`;
    if (row!.n >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${row!.n} of ${count} runs finished in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function worker(): Promise<Row[]> {
  const stack = await startTestStack({ env: { WORKER_CONCURRENCY, TIMER_RUNS_PER_MINUTE: '1000000' } });
  try {
    stack.standins.gemini.setChunkDelay(0);
    const users = await makeUsers(stack, Math.max(THROUGHPUT_RUNS, SAME_MINUTE) / PER_USER);
    // Throughput: jobs added straight to the queue, one fire each, then the worker drains them.
    const ids = (await createMany(stack, users, THROUGHPUT_RUNS, (i) => input(i, '03:17'))).map((t) => t.id);
    await stack.deps.timersQueue.addBulk(
      ids.map((timerId, i) => ({ name: RUN_TIMER_JOB, data: { timerId }, opts: { jobId: `bench-${i}`, timestamp: Date.now() } })),
    );
    const start = performance.now();
    await stack.startWorker();
    await waitForRuns(stack, THROUGHPUT_RUNS, 120_000);
    const runsPerSecond = THROUGHPUT_RUNS / ((performance.now() - start) / 1000);
    await stack.worker!.close();
    await stack.db.sql`update timers set deleted_at = now()`;
    await stack.db.sql`delete from timer_runs`;
    await stack.db.sql`update accounts set searches_used = 0`;
    await stack.deps.timersQueue.obliterate({ force: true });

    // Lag: 1,000 daily timers on the same minute, at least 15 s ahead.
    const fire = new Date(Date.now() + 75_000);
    fire.setUTCSeconds(0, 0);
    const hhmm = `${String(fire.getUTCHours()).padStart(2, '0')}:${String(fire.getUTCMinutes()).padStart(2, '0')}`;
    const sameMinute = (i: number) => ({ ...input(i, hhmm), scheduleType: 'daily' as const, weekday: null, timezone: 'UTC' });
    await createMany(stack, users, SAME_MINUTE, sameMinute);
    await stack.startWorker();
    await waitForRuns(stack, SAME_MINUTE, fire.getTime() - Date.now() + 120_000);
    const lags = await stack.db.sql<{ ms: number }[]>`
      select extract(epoch from (started_at - scheduled_for)) * 1000 as ms from timer_runs`;
    const lagMs = lags.map((r) => Number(r.ms));
    return [
      { metric: `worker throughput (concurrency ${WORKER_CONCURRENCY}, instant answers)`, value: runsPerSecond, unit: 'runs/s' },
      { metric: `schedule lag, ${SAME_MINUTE} timers on one minute, p50`, value: percentile(lagMs, 50), unit: 'ms' },
      { metric: `schedule lag, ${SAME_MINUTE} timers on one minute, p99`, value: percentile(lagMs, 99), unit: 'ms' },
      { metric: 'runs recorded for that minute', value: lagMs.length, unit: '', goal: `= ${SAME_MINUTE}` },
    ];
  } finally {
    await stack.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  return [
    {
      name: 'timers',
      method: `${TIMERS} timers for ${TIMERS / PER_USER} users through core createTimers, each user's 20 in one call (one transaction, a multi-row insert, the schedulers upserted in one pipeline), ${CREATE_CONCURRENCY} users at once; for comparison ${ONE_BY_ONE} through createTimer one at a time (the API's path). Redis memory from INFO used_memory before and after, on the shared Redis (default settings), broken down by MEMORY USAGE (SAMPLES 0) of one timer's keys and its shares of the queue-wide keys, and again for the same schedulers on a private redis-server with ${RECOMMENDED_REDIS.join(' ')}. Worker: one in-process worker (concurrency ${WORKER_CONCURRENCY}) with the Gemini stand-in answering at once; throughput over ${THROUGHPUT_RUNS} queued runs; lag = timer_runs.started_at minus the scheduled minute for ${SAME_MINUTE} daily timers on the same minute. Reconcile: a worker's pass over the armed timers in this process, its live heap sampled after a full GC every ${HEAP_SAMPLE_MS} ms; then a second pass while another process saves and deletes one user's timer again and again (bench/lib/timer-saver-child.ts).`,
      rows: [...(await scale()), ...(await worker())],
    },
  ];
}
