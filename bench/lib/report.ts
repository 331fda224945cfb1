import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Row {
  metric: string;
  value: number;
  unit: string;
  /** The same quantity for the baseline measured in the same run, when there is one. */
  baseline?: number;
  /** What the goal is, e.g. '< 5 ms', printed beside the figure. */
  goal?: string;
  /** One of the headline figures: its name in the summary `make bench` prints last (bench/lib/figures.ts). */
  figure?: string;
  /** Whether the figure meets its goal, for the summary. */
  met?: boolean;
  /** A goal the benchmark must meet: when `met` is false the run prints everything, then exits non-zero. */
  required?: boolean;
  /**
   * A limit this machine puts on one of the headline figures whatever the product's code does (a floor or a
   * ceiling measured in the same run), and whether that limit alone already misses the figure's goal.
   */
  bounds?: { figure: string; missesGoal: boolean };
}

export interface BenchResult {
  name: string;
  method: string;
  rows: Row[];
}

export function machine() {
  return {
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadavg: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}

export const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n >= 100 ? n.toFixed(0) : n.toFixed(2));

/** Prints a Markdown table, columns padded to their widest cell. */
export function printTable(header: string[], lines: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(row(header));
  console.log(row(widths.map((w) => '-'.repeat(w))));
  for (const l of lines) console.log(row(l));
}

/** The rows of a result whose required goal was missed. */
export const missedRequired = (result: BenchResult): Row[] => result.rows.filter((r) => r.required && r.met === false);

/** Prints the table and writes bench/results/<name>.json (the latest figures of that benchmark). */
export async function report(result: BenchResult): Promise<void> {
  console.log(`\n## ${result.name}\n${result.method}\n`);
  const lines = result.rows.map((r) => [
    r.metric,
    `${fmt(r.value)} ${r.unit}`,
    r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit}`,
    r.baseline === undefined || r.baseline === 0 ? '' : `${(r.value / r.baseline).toFixed(2)}×`,
    r.goal === undefined ? '' : r.met === undefined ? r.goal : `${r.goal} (${r.met ? 'met' : 'not met'})`,
  ]);
  printTable(['metric', 'value', 'baseline', 'ratio', 'goal'], lines);
  const dir = path.resolve('bench/results');
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, `${result.name}.json`),
    JSON.stringify({ ...result, at: new Date().toISOString(), machine: machine() }, null, 2),
  );
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}
