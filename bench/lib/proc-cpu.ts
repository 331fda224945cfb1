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
