import { readFileSync } from 'node:fs';

const TICK_MS = 1000 / 100;

/** A process's CPU time so far (utime + stime from /proc, in ms); 0 once it has gone. */
export function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** A process's CPU time and its children's (a node:cluster primary and its processes), in ms. */
export function procTreeCpuMs(pid: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    // Gone already: it has no CPU time left to count.
  }
  return procCpuMs(pid) + children.reduce((sum, child) => sum + procCpuMs(child), 0);
}
