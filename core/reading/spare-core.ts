import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Where Linux says how often tasks waited for a CPU (pressure stall information): the process's own cgroup's
 * under cgroup v2, else the whole machine's.
 */
const PRESSURE_FILES = ['/sys/fs/cgroup/cpu.pressure', '/proc/pressure/cpu'];

/**
 * The share of the last ten seconds in which some task waited for a CPU, past which no core counts as spare.
 * On an otherwise idle machine it stays near 0; with more runnable threads than cores it nears 100.
 */
const PRESSURE_LIMIT = 20;

/**
 * Whether the machine has a core to spare right now: a second thread would run beside the first rather than
 * take turns with other work. From the CPU pressure where Linux reports it, else from the load average.
 */
export function hasSpareCore(): boolean {
  for (const file of PRESSURE_FILES) {
    const waited = someAvg10(file);
    if (waited !== undefined) return waited < PRESSURE_LIMIT;
  }
  return os.loadavg()[0]! + 1 <= os.availableParallelism();
}

/** `some avg10=` of a pressure file, in percent; undefined when the file is not there or says no such thing. */
function someAvg10(file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const match = /^some avg10=(\d+(?:\.\d+)?)/m.exec(text);
  return match ? Number(match[1]) : undefined;
}
