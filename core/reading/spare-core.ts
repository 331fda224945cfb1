import os from 'node:os';

/** How often the machine's CPU time is sampled, in ms. */
const SAMPLE_MS = 1000;

/**
 * Cores other processes must leave free for a page's two parts to pay: with about 1.3 cores the two parts and
 * their join take as long as one thread (they cost about a quarter more CPU), with 2 about 70% of it.
 */
const FREE_CORES = 1.5;

interface Sample {
  at: number;
  /** CPU time of every core of the machine, busy (not idle), in ms. */
  machine: number;
  /** CPU time of this process, every thread, in ms. */
  own: number;
}

function sample(): Sample {
  let machine = 0;
  for (const cpu of os.cpus()) machine += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq;
  const own = process.cpuUsage();
  return { at: performance.now(), machine, own: (own.user + own.system) / 1000 };
}

/**
 * Whether the machine has cores to spare for a reading's second thread: how busy the other processes kept it
 * over the last second, from every core's CPU time less this process's own. This process's own readings do not
 * count: a reading that follows another finds the cores it used free again.
 */
export class SpareCores {
  private last = sample();
  /** Cores the other processes kept busy over the last sampled second. */
  private others = 0;
  private readonly timer = setInterval(() => this.update(), SAMPLE_MS).unref();

  get spare(): boolean {
    return os.availableParallelism() - this.others >= FREE_CORES;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private update(): void {
    const now = sample();
    const elapsed = now.at - this.last.at;
    if (elapsed > 0) this.others = Math.max(0, now.machine - this.last.machine - (now.own - this.last.own)) / elapsed;
    this.last = now;
  }
}
