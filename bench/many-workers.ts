import { RUN_TIMER_JOB } from '../core/jobs';
import { timerRunLimiter } from '../core/timers/run-limit';
import { schedulerId } from '../core/timers/scheduler';
import { createTimer } from '../core/timers/lifecycle';
import { startFleet, type Fleet } from '../dev/harness/fleet';
import { createSignedInUser } from '../dev/harness/users';
import { percentile, type BenchResult, type Row } from './lib/report';
import { FIGURES } from './lib/figures';
import { measureGeminiFloor } from './lib/gemini-floor';
import { measureWorkerCpu } from './worker-cpu';

const PER_USER = 20;
const WORKER_CONCURRENCY = '50';
// The goals for the two worker figures (BENCHMARKS.md).
const THROUGHPUT_GOAL = 1000;
const LAG_P99_GOAL_MS = 1000;

export interface ManyWorkersOptions {
  /** Timers whose fires fall on one instant, for the lag figures. */
  sameMinute: number;
  /** Worker process counts to measure the lag with, in rising order. */
  workerCounts: number[];
  /** Fires due at once against a small global rate, for the rush figures. */
  rush: number;
  rushPerMinute: number;
}

const DEFAULTS: ManyWorkersOptions = { sameMinute: 1000, workerCounts: [1, 2, 3, 4], rush: 300, rushPerMinute: 600 };

/** Timers on one far-away daily minute (so no scheduler fires by itself); the benchmark forces their fires. */
async function makeTimers(fleet: Fleet, count: number): Promise<number[]> {
  const far = new Date(Date.now() + 12 * 3600_000);
  const time = `${String(far.getUTCHours()).padStart(2, '0')}:${String(far.getUTCMinutes()).padStart(2, '0')}`;
  const ids: number[] = [];
  for (let u = 0; u < count; u += PER_USER) {
    const { user } = await createSignedInUser(fleet.db.sql);
    const batch = await Promise.all(
      Array.from({ length: Math.min(PER_USER, count - u) }, async (_, i) => {
        const created = await createTimer({ sql: fleet.db.sql, timersQueue: fleet.queue }, user.id, {
          scheduleType: 'daily',
          time,
          weekday: null,
          ques: `Kubernetes meetups #${u + i}`,
          web: '',
          timezone: 'UTC',
        });
        if (!created.ok) throw new Error('timer limit reached in the benchmark');
        return created.timer.id;
      }),
    );
    ids.push(...batch);
  }
  await fleet.db.sql`update accounts set tier = 'pro'`;
  // No digests: each round would otherwise email the first round's new events, so rounds would differ.
  await fleet.db.sql`update timers set email_enabled = false`;
  return ids;
}

/**
 * Adds one fire per timer exactly as their schedulers arm them (delayed job `repeat:timer-<id>:<at>`, due at
 * `at`); returns once they are added, which must be before `at`.
 */
async function armFires(fleet: Fleet, ids: number[], at: number): Promise<void> {
  await fleet.queue.addBulk(
    ids.map((timerId) => ({
      name: RUN_TIMER_JOB,
      data: { timerId },
      opts: { jobId: `repeat:${schedulerId(timerId)}:${at}`, prevMillis: at, delay: Math.max(0, at - Date.now()) },
    })),
  );
  if (Date.now() >= at) throw new Error('adding the fires took longer than the lead time; raise it');
}

interface FireTimes {
  /** Each run's started_at (the lag figures), ascending. */
  starts: number[];
  /** When the last run ended (the throughput figure). */
  lastFinish: number;
}

async function finishedRuns(fleet: Fleet, at: number, count: number, timeoutMs: number): Promise<FireTimes> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await fleet.db.sql<{ ms: number; end_ms: number }[]>`
      select extract(epoch from started_at) * 1000 as ms, extract(epoch from finished_at) * 1000 as end_ms from timer_runs
      where scheduled_for = ${new Date(at)} and status <> 'running'`;
    if (rows.length >= count) {
      return { starts: rows.map((r) => Number(r.ms)).sort((a, b) => a - b), lastFinish: Math.max(...rows.map((r) => Number(r.end_ms))) };
    }
    if (Date.now() > deadline) {
      const left = await fleet.db.sql`
        select status, left(coalesce(error, ''), 120) as error, count(*)::int as n from timer_runs
        where scheduled_for = ${new Date(at)} group by 1, 2`;
      throw new Error(`only ${rows.length} of ${count} runs finished in time: ${JSON.stringify(left)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function lag(options: ManyWorkersOptions): Promise<Row[]> {
  const fleet = await startFleet({
    apis: 0,
    workers: 0,
    from: 'dist',
    // The global limiter high enough never to be what caps the drain: this measures the workers themselves.
    env: { WORKER_CONCURRENCY, TIMER_RUNS_PER_MINUTE: '1000000', LOG_LEVEL: 'error' },
  });
  try {
    fleet.standins.gemini.setChunkDelay(0);
    const ids = await makeTimers(fleet, options.sameMinute);
    const rows: Row[] = [];
    for (const workers of options.workerCounts) {
      while (fleet.workers.length < workers) await fleet.addWorker();
      await fleet.db.sql`update accounts set searches_used = 0`;
      const at = Math.ceil((Date.now() + 10_000) / 1000) * 1000;
      await armFires(fleet, ids, at);
      const { starts, lastFinish } = await finishedRuns(fleet, at, ids.length, 10_000 + 180_000);
      const lags = starts.map((s) => s - at);
      rows.push(
        {
          metric: `${workers} worker process(es): throughput (runs / due to last run ended)`,
          value: ids.length / ((lastFinish - at) / 1000),
          unit: 'runs/s',
        },
        { metric: `${workers} worker process(es): schedule lag p50`, value: percentile(lags, 50), unit: 'ms' },
        {
          metric: `${workers} worker process(es): schedule lag p99`,
          value: percentile(lags, 99),
          unit: 'ms',
          ...(workers >= 2 ? { goal: `< ${LAG_P99_GOAL_MS} ms` } : {}),
        },
      );
    }
    markFigures(rows);
    return rows;
  } finally {
    await fleet.close();
  }
}

/** The two worker figures: the best throughput over the process counts, the best p99 lag with 2 or more. */
function markFigures(rows: Row[]): void {
  const best = (pattern: RegExp, better: (a: Row, b: Row) => boolean) =>
    rows.filter((r) => pattern.test(r.metric)).reduce<Row | undefined>((b, r) => (!b || better(r, b) ? r : b), undefined);
  const throughput = best(/throughput/, (a, b) => a.value > b.value);
  if (throughput)
    Object.assign(throughput, {
      goal: `≥ ${THROUGHPUT_GOAL} runs/s`,
      figure: FIGURES.throughput,
      met: throughput.value >= THROUGHPUT_GOAL,
    });
  const lagP99 = best(/^([2-9]|\d{2,}) worker process\(es\): schedule lag p99/, (a, b) => a.value < b.value);
  if (lagP99) Object.assign(lagP99, { figure: FIGURES.lag, met: lagP99.value < LAG_P99_GOAL_MS });
}

async function rush(options: ManyWorkersOptions): Promise<Row[]> {
  const workers = Math.max(...options.workerCounts);
  const fleet = await startFleet({
    apis: 0,
    workers,
    from: 'dist',
    env: { WORKER_CONCURRENCY, TIMER_RUNS_PER_MINUTE: String(options.rushPerMinute), LOG_LEVEL: 'error' },
  });
  try {
    const ids = await makeTimers(fleet, options.rush);
    // 09:00 for all of them: due now, all at once.
    const at = Date.now();
    await armFires(fleet, ids, at + 2000);
    const { starts } = await finishedRuns(fleet, at + 2000, ids.length, 60_000 + (ids.length / options.rushPerMinute) * 120_000);
    const { max, duration } = timerRunLimiter(options.rushPerMinute);
    const span = (starts.at(-1)! - starts[0]!) / 1000;
    let busiest = 0;
    for (const [i, t] of starts.entries()) busiest = Math.max(busiest, starts.slice(i).filter((u) => u < t + duration).length);
    return [
      // The starts fill whole windows, the last one included: n starts over the span plus that last window.
      {
        metric: `rush of ${ids.length} fires, ${workers} workers: runs started per minute`,
        value: (ids.length / (span + duration / 1000)) * 60,
        unit: '/min',
        goal: `≤ ${options.rushPerMinute}`,
      },
      { metric: 'rush: time from first to last start', value: span, unit: 's', goal: `≥ ${((ids.length / max - 1) * duration) / 1000} s` },
      { metric: `rush: most starts in any ${duration} ms`, value: busiest, unit: 'runs', goal: `≤ ${2 * max} (two windows of ${max})` },
    ];
  } finally {
    await fleet.close();
  }
}

/**
 * Where throughput saturates on this machine: the CPU one run costs, split by process, and the ceiling that puts
 * on the machine's cores; then the same for the run's two Gemini calls alone, a floor no change to the worker,
 * Postgres or Redis can go below. That ceiling also bounds the lag: two workers start their slots' worth of the
 * fires at once, and each later start waits for a run to end, so the fire at p99 starts no sooner than the runs
 * before it beyond those slots take at the ceiling.
 */
async function saturation(options: ManyWorkersOptions): Promise<Row[]> {
  const cpu = await measureWorkerCpu({ workers: 1, runs: 2000, concurrency: Number(WORKER_CONCURRENCY) });
  const floor = await measureGeminiFloor();
  const per = cpu.cpuMsPerRun;
  const ceiling = (ms: number) => (floor.cores * 1000) / ms;
  const slots = 2 * Number(WORKER_CONCURRENCY);
  const lagAtCeiling = (Math.max(0, Math.ceil(0.99 * options.sameMinute) - slots) / floor.ceilingRunsPerSecond) * 1000;
  return [
    { metric: 'CPU per run, all processes (1 worker, 2,000 runs)', value: per.total, unit: 'ms' },
    { metric: 'CPU per run: worker process', value: per.worker, unit: 'ms' },
    { metric: 'CPU per run: Postgres', value: per.postgres, unit: 'ms' },
    { metric: 'CPU per run: Redis', value: per.redis, unit: 'ms' },
    { metric: 'CPU per run: Gemini stand-in and bench', value: per.standinAndBench, unit: 'ms' },
    { metric: 'Postgres transactions per run', value: cpu.pgTransactionsPerRun, unit: '' },
    { metric: `ceiling on ${floor.cores} cores at that CPU per run`, value: ceiling(per.total), unit: 'runs/s' },
    { metric: 'CPU per run of its two Gemini calls alone: client (our code + official client)', value: floor.clientMsPerRun, unit: 'ms' },
    { metric: 'CPU per run of its two Gemini calls alone: stand-in', value: floor.standinMsPerRun, unit: 'ms' },
    {
      metric: `ceiling on ${floor.cores} cores from those calls alone`,
      value: floor.ceilingRunsPerSecond,
      unit: 'runs/s',
      bounds: { figure: FIGURES.throughput, missesGoal: floor.ceilingRunsPerSecond < THROUGHPUT_GOAL },
    },
    {
      metric: `schedule lag p99 at that ceiling, ${slots} runs started at once by 2 workers`,
      value: lagAtCeiling,
      unit: 'ms',
      bounds: { figure: FIGURES.lag, missesGoal: lagAtCeiling >= LAG_P99_GOAL_MS },
    },
  ];
}

export async function run(options: Partial<ManyWorkersOptions> = {}): Promise<BenchResult[]> {
  const o = { ...DEFAULTS, ...options };
  return [
    {
      name: 'workers',
      method: `Worker processes (built dist/server/worker.js, concurrency ${WORKER_CONCURRENCY} each) against one Postgres and Redis, Gemini stand-in answering at once (no delay between chunks), timers' email off (no digests rendered or sent). Lag: ${o.sameMinute} timers' fires armed as their schedulers arm them (delayed jobs due on one instant), TIMER_RUNS_PER_MINUTE=1000000 so the global limiter never caps it, lag = timer_runs.started_at − that instant, measured with ${o.workerCounts.join(', ')} worker processes in turn; throughput = the runs over the time from that instant to the last run's end. Rush: ${o.rush} fires due at once with TIMER_RUNS_PER_MINUTE=${o.rushPerMinute}; the start rate over the drain. Saturation: CPU time per run by process (bench/worker-cpu.ts: /proc utime + stime of the worker and the database's backends, Redis INFO cpu, this process for the stand-in) and of the run's two Gemini calls alone, the stand-in in a process of its own (bench/lib/gemini-floor.ts); ceiling = cores × 1000 ms / CPU ms per run.`,
      rows: [...(await lag(o)), ...(await rush(o)), ...(await saturation(o))],
    },
  ];
}
