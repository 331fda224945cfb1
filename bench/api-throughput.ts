import autocannon from 'autocannon';
import { build } from 'esbuild';
import { createSignedInUser } from '../test/support/users';
import type { BenchResult } from './lib/report';
import { freePort, startChild } from '../test/support/processes';
import { startBenchStack } from './lib/stack';

const DURATION_S = 8;
const CONNECTIONS = 50;

async function load(url: string, cookie?: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers: cookie ? { cookie } : {} });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Signed-in GET /api/check-session, GET /api/timers (20 timers) and GET /api/account/billing against a bare Hono handler, same run. */
export async function run(): Promise<BenchResult[]> {
  await build({
    entryPoints: ['bench/bare-hono.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: 'dist/bench/bare-hono.js',
    logLevel: 'error',
  });
  const port = await freePort();
  const bare = await startChild(['dist/bench/bare-hono.js', String(port)], {}, { port });
  const stack = await startBenchStack();
  try {
    const { cookie } = await createSignedInUser(stack.db.sql);
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${stack.api.url}/api/schedule`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: stack.api.url },
        body: JSON.stringify({
          scheduleType: i % 2 ? 'weekly' : 'daily',
          time: '09:00',
          weekday: 'Monday',
          ques: `Meetups ${i}`,
          web: '',
          timezone: 'Europe/Berlin',
        }),
      });
      if (!res.ok) throw new Error(`creating timer ${i}: ${res.status} ${await res.text()}`);
    }
    const baseline = await load(`${bare.url}/api/check-session`);
    const session = await load(`${stack.api.url}/api/check-session`, cookie);
    const timers = await load(`${stack.api.url}/api/timers`, cookie);
    const billing = await load(`${stack.api.url}/api/account/billing`, cookie);
    return [
      {
        name: 'api',
        method: `autocannon, ${CONNECTIONS} connections for ${DURATION_S} s each, against the built api in its own process (Postgres session lookup, logging, headers). Baseline: a bare Hono handler on @hono/node-server in its own process, same run.`,
        rows: [
          { metric: 'check-session, requests/s', value: session.rps, unit: 'req/s', baseline: baseline.rps, goal: '≥ 0.6×' },
          { metric: 'check-session, p99 latency', value: session.p99, unit: 'ms', baseline: baseline.p99 },
          { metric: 'timers (20), requests/s', value: timers.rps, unit: 'req/s', baseline: baseline.rps },
          { metric: 'timers (20), p99 latency', value: timers.p99, unit: 'ms', baseline: baseline.p99 },
          { metric: 'account/billing, requests/s', value: billing.rps, unit: 'req/s', baseline: baseline.rps },
          { metric: 'account/billing, p99 latency', value: billing.p99, unit: 'ms', baseline: baseline.p99 },
        ],
      },
    ];
  } finally {
    await stack.close();
    await bare.stop();
  }
}
