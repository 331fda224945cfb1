import { performance } from 'node:perf_hooks';
import { apiNodeFlags } from '../dev/harness/api-node-flags';
import { testBaseEnv } from '../dev/harness/base-env';
import { createTestDatabase } from '../dev/harness/db';
import { freePort, spawnNode } from '../dev/harness/processes';
import { testQueuePrefix } from '../dev/harness/redis';
import type { BenchResult, Row } from './lib/report';

/** The goal: an api started while a service it needs is down answers its liveness probe within this. */
const GOAL_MS = 5_000;
/** Past this the api is taken not to listen at all. */
const GIVE_UP_MS = 60_000;
const RUNS = 3;

export const OUTAGE_START_METHOD =
  'The built api (dist/server/api.js, `npm start` flags) spawned with DATABASE_URL or REDIS_URL naming a closed loopback ' +
  `port, and once with both reachable (the baseline); time from spawn to the first 200 from /healthz, polled every 10 ms; ` +
  `median of ${RUNS} starts each.`;

/** Milliseconds from spawn to the first 200 from /healthz, or GIVE_UP_MS when none came. */
async function timeToLive(env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawnNode([...apiNodeFlags(), 'dist/server/api.js'], { ...env, PORT: String(port), APP_URL: url });
  try {
    while (performance.now() - started < GIVE_UP_MS) {
      const live = await fetch(`${url}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (live) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return GIVE_UP_MS;
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function outageStartRows(): Promise<Row[]> {
  const db = await createTestDatabase();
  const closedPort = await freePort();
  const nowhere = `127.0.0.1:${closedPort}`;
  try {
    const base = testBaseEnv({
      appUrl: 'http://127.0.0.1:1',
      databaseUrl: db.url,
      queuePrefix: testQueuePrefix(),
      // Nothing outside is asked before /healthz answers: the stand-ins' address is a closed port too.
      standins: { url: `http://${nowhere}`, port: closedPort, smtpUrl: `smtp://${nowhere}` },
    });
    const starts = async (env: Record<string, string>) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await timeToLive(env));
      return median(times);
    };
    const up = await starts(base);
    const rows: Row[] = [];
    for (const missing of ['postgres', 'redis'] as const) {
      const env =
        missing === 'postgres'
          ? { ...base, DATABASE_URL: `postgres://postgres@${nowhere}/eventfinder` }
          : { ...base, REDIS_URL: `redis://${nowhere}` };
      const value = Math.round(await starts(env));
      rows.push({
        metric: `spawn to first /healthz 200, ${missing} unreachable (baseline: both up)`,
        value,
        unit: 'ms',
        baseline: Math.round(up),
        goal: `≤ ${GOAL_MS} ms`,
        met: value <= GOAL_MS,
      });
    }
    return rows;
  } finally {
    await db.drop();
  }
}

export async function run(): Promise<BenchResult[]> {
  return [{ name: 'outage-start', method: OUTAGE_START_METHOD, rows: await outageStartRows() }];
}
