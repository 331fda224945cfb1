import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { RUN_TIMER_JOB } from '../core/jobs';
import { parseTimerInput } from '../core/timers/input';
import { createTimers } from '../core/timers/lifecycle';
import { startFleet } from '../dev/harness/fleet';
import { createTemplateDatabase, dropDatabase } from '../dev/harness/pg';
import { startChild } from '../dev/harness/processes';
import { createSignedInUser } from '../dev/harness/users';
import { procCpuMs } from './lib/proc-cpu';
import { startPrivateRedis } from './lib/redis-server';

/**
 * CPU per timer run, split by process: `npx tsx bench/worker-cpu.ts [workers] [runs] [concurrency]` (needs
 * `make build`). Built worker processes drain `runs` queued fires against a private redis-server, the Gemini
 * stand-in (in this process) answering at once; each process's CPU time (utime + stime from /proc, INFO cpu for
 * Redis) over the drain, divided by the runs. Postgres is the backends of the run's database. CPU time rather
 * than wall clock, so a busy shared machine does not move the figure much. WORKER_CPU_PROF=dir profiles the
 * workers (`node --cpu-prof`).
 */
export interface WorkerCpuOptions {
  workers: number;
  runs: number;
  concurrency: number;
  /** Profiles the worker processes (`node --cpu-prof`) into this folder. */
  profileDir?: string;
}

export interface WorkerCpu {
  workers: number;
  runs: number;
  concurrency: number;
  runsPerSecond: number;
  /** CPU time per run by process; `standinAndBench` is this process (the Gemini stand-in and the polling). */
  cpuMsPerRun: { worker: number; postgres: number; redis: number; standinAndBench: number; total: number };
  pgTransactionsPerRun: number;
  load: string;
}

/** Drains `runs` queued fires through built worker processes and splits the CPU they cost by process. */
export async function measureWorkerCpu(options: WorkerCpuOptions): Promise<WorkerCpu> {
  const { workers, runs } = options;
  const concurrency = String(options.concurrency);
  const redis = await startPrivateRedis([]);
  const port = redis.redis.options.port;
  const prof = options.profileDir;
  const fleet = await startFleet({
    apis: 0,
    workers: prof ? 0 : workers,
    from: 'dist',
    env: {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      WORKER_CONCURRENCY: concurrency,
      TIMER_RUNS_PER_MINUTE: '1000000',
      LOG_LEVEL: 'error',
    },
  });
  if (prof) {
    for (let i = 0; i < workers; i++) {
      fleet.workers.push(
        await startChild(['--cpu-prof', `--cpu-prof-dir=${prof}`, 'dist/server/worker.js'], fleet.env, { portVar: 'WORKER_METRICS_PORT' }),
      );
    }
  }
  try {
    fleet.standins.gemini.setChunkDelay(0);
    const sql = fleet.db.sql;
    const ids: number[] = [];
    for (let u = 0; ids.length < runs; u++) {
      const { user } = await createSignedInUser(sql);
      const inputs = Array.from({ length: Math.min(20, runs - ids.length) }, (_, i) => {
        const check = parseTimerInput({
          scheduleType: 'daily',
          time: '03:17',
          weekday: null,
          ques: `Kubernetes meetups #${u}-${i}`,
          web: '',
          timezone: 'UTC',
        });
        if (!check.ok) throw new Error(check.message);
        return check.input;
      });
      const made = await createTimers({ sql, timersQueue: fleet.queue }, user.id, inputs);
      if (!made.ok) throw new Error('could not create timers');
      ids.push(...made.timers.map((t) => t.id));
    }
    await sql`update accounts set tier = 'pro'`;
    await sql`update timers set email_enabled = false`;
    const dbName = new URL(fleet.db.url).pathname.slice(1);
    const backends = async () =>
      (await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${dbName}`).map((r) => r.pid);
    const redisCpu = async () => {
      const info = await redis.redis.info('cpu');
      const n = (k: string) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)![1]);
      return (n('used_cpu_sys') + n('used_cpu_user')) * 1000;
    };
    const [stats0] = await sql<{ xact: string }[]>`select xact_commit::text as xact from pg_stat_database where datname = ${dbName}`;
    const before = {
      workers: fleet.workers.map((w) => procCpuMs(w.pid)),
      pg: new Map((await backends()).map((pid) => [pid, procCpuMs(pid)])),
      redis: await redisCpu(),
      self: process.cpuUsage(),
    };
    const start = performance.now();
    await fleet.queue.addBulk(ids.map((timerId, i) => ({ name: RUN_TIMER_JOB, data: { timerId }, opts: { jobId: `cpu-${i}` } })));
    for (;;) {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from timer_runs where status <> 'running'`;
      if (row!.n >= runs) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - start) / 1000;
    const pids = await backends();
    const pg = pids.reduce((sum, pid) => sum + procCpuMs(pid) - (before.pg.get(pid) ?? 0), 0);
    const [stats1] = await sql<{ xact: string }[]>`select xact_commit::text as xact from pg_stat_database where datname = ${dbName}`;
    const worker = fleet.workers.reduce((sum, w, i) => sum + procCpuMs(w.pid) - before.workers[i]!, 0);
    const red = (await redisCpu()) - before.redis;
    const self = process.cpuUsage(before.self);
    const selfMs = (self.user + self.system) / 1000;
    const per = (ms: number) => ms / runs;
    return {
      workers,
      runs,
      concurrency: options.concurrency,
      runsPerSecond: Math.round(runs / seconds),
      cpuMsPerRun: {
        worker: per(worker),
        postgres: per(pg),
        redis: per(red),
        standinAndBench: per(selfMs),
        total: per(worker + pg + red + selfMs),
      },
      pgTransactionsPerRun: (Number(stats1!.xact) - Number(stats0!.xact)) / runs,
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    };
  } finally {
    await fleet.close();
    await redis.stop();
  }
}

async function main(): Promise<void> {
  const template = await createTemplateDatabase();
  try {
    const result = await measureWorkerCpu({
      workers: Number(process.argv[2] ?? 1),
      runs: Number(process.argv[3] ?? 2000),
      concurrency: Number(process.argv[4] ?? 50),
      profileDir: process.env.WORKER_CPU_PROF,
    });
    console.log(JSON.stringify(result));
  } finally {
    await dropDatabase(template);
  }
}

// Run as a script (`npx tsx bench/worker-cpu.ts`), not when the workers benchmark imports it.
if (process.argv[1]?.endsWith('worker-cpu.ts')) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
