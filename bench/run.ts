import { performance } from 'node:perf_hooks';
import { createTemplateDatabase, dropDatabase } from '../dev/harness/pg';
import type { BenchResult, Row } from './lib/report';
import { fmt, missedRequired, report } from './lib/report';
import { printFigures } from './lib/figures';

/** Each benchmark runs on its own: `make bench ONLY=stream`. */
const BENCHMARKS: Record<string, () => Promise<BenchResult[]>> = {
  stream: async () => (await import('./stream')).run(),
  api: async () => (await import('./api-throughput')).run(),
  timers: async () => (await import('./timers-scale')).run(),
  workers: async () => (await import('./many-workers')).run(),
  credits: async () => (await import('./credits')).run(),
  page: async () => (await import('./page-weight')).run(),
  cost: async () => (await import('./cost')).run(),
  extraction: async () => (await import('./extraction')).run(),
  // The 2 MB page of `extraction` alone.
  reading: async () => (await import('./extraction')).runReading(),
  // The hostile shape of `extraction` alone: many accounts' slow calendars, another user's ask.
  'fair-reading': async () => {
    const { FAIR_READING_METHOD, fairReadingRows } = await import('./fair-reading');
    return [{ name: 'fair reading', method: FAIR_READING_METHOD, rows: await fairReadingRows() }];
  },
  // The hostile checking shapes of `extraction` alone.
  'checking-shapes': async () => {
    const { CHECKING_SHAPES_METHOD, checkingShapeRows } = await import('./checking-shapes');
    return [{ name: 'checking shapes', method: CHECKING_SHAPES_METHOD, rows: await checkingShapeRows() }];
  },
  verification: async () => (await import('./verification')).run(),
  'outage-start': async () => (await import('./outage-start')).run(),
  'redis-pause': async () => (await import('./redis-pause')).run(),
};

async function main(): Promise<Row[]> {
  const only = process.argv.slice(2).filter(Boolean);
  const unknown = only.filter((n) => !(n in BENCHMARKS));
  if (unknown.length) {
    console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}.`);
    process.exit(2);
  }
  const names = only.length ? only : Object.keys(BENCHMARKS);
  // Benchmarks clone their databases from a migrated template, like the tests.
  const template = await createTemplateDatabase();
  const missed: Row[] = [];
  try {
    for (const name of names) {
      const start = performance.now();
      for (const result of await BENCHMARKS[name]!()) {
        await report(result);
        missed.push(...missedRequired(result));
      }
      console.log(`(${name}: ${((performance.now() - start) / 1000).toFixed(1)} s)`);
    }
    await printFigures();
  } finally {
    await dropDatabase(template);
  }
  return missed;
}

main().then(
  (missed) => {
    if (missed.length) {
      console.error(
        `\nRequired goals missed:\n${missed.map((r) => `- ${r.metric}: ${fmt(r.value)} ${r.unit}, goal ${r.goal}`).join('\n')}`,
      );
      process.exit(1);
    }
    process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
