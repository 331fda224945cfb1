import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type BenchResult, fmt, printTable, type Row } from './report';

/** The headline figures, in BENCHMARKS.md's order; a benchmark marks its row with one of these names. */
export const FIGURES = {
  creation: '100k timers created',
  redis: 'Redis per idle timer, default Redis',
  throughput: 'worker throughput, instant upstream',
  lag: 'schedule lag p99, 1,000 timers, 2+ workers',
  askOne: '/api/ask added to first byte, 1 stream, p50, vs the floor',
  askCold: '/api/ask added to first byte, first burst of 50 after start, p50, vs the floor',
  askFifty: '/api/ask added to first byte, warm bursts of 50, p50, vs the floor',
  askCpu: '/api/ask CPU per ask vs the floor',
  session: 'signed-in check-session vs bare node:http',
} as const;
const ORDER: string[] = Object.values(FIGURES);

/**
 * The headline figures in one table, from the latest result of each benchmark (bench/results/*.json), so a run
 * of one benchmark still shows where the others stood and when they were measured.
 */
export async function printFigures(): Promise<void> {
  const dir = path.resolve('bench/results');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json'));
  const figures: { row: Row; at: string }[] = [];
  const bounds = new Map<string, Row>();
  for (const file of files) {
    const result = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as BenchResult & { at: string };
    for (const row of result.rows) {
      if (row.figure) figures.push({ row, at: result.at });
      if (row.bounds) bounds.set(row.bounds.figure, row);
    }
  }
  if (!figures.length) return;
  figures.sort((a, b) => ORDER.indexOf(a.row.figure!) - ORDER.indexOf(b.row.figure!));
  console.log('\n## The headline figures (latest run of each benchmark)\n');
  const lines = figures.map(({ row, at }) => {
    const bound = bounds.get(row.figure!);
    return [
      row.figure!,
      row.baseline ? `${(row.value / row.baseline).toFixed(2)}× (${fmt(row.value)} ${row.unit})` : `${fmt(row.value)} ${row.unit}`,
      row.goal ?? '',
      row.met === undefined ? '' : row.met ? 'met' : bound?.bounds?.missesGoal ? 'not met, out of reach here' : 'not met',
      bound
        ? `${bound.baseline ? `${(bound.value / bound.baseline).toFixed(2)}×` : `${fmt(bound.value)} ${bound.unit}`}: ${bound.metric}`
        : '',
      at.slice(0, 16).replace('T', ' '),
    ];
  });
  printTable(['figure', 'value', 'goal', 'met', "this machine's limit", 'measured (UTC)'], lines);
}
