import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../core/logger';
import { answerMetricsRequests } from './cluster-metrics';

/** Processes that die before they ever listened (a broken start, not a crash) replaced before the api gives up. */
const RESTARTS_BEFORE_GIVING_UP = 5;

/**
 * The api as `count` processes on one port (API_PROCESSES, node:cluster): this process forks them, hands each new
 * connection to the next in turn, and serves nothing itself. Nothing lives in an api process's memory that
 * another needs (rate limits, slots, sessions and their revocations are in Redis and Postgres), so a request may
 * land on any. A process that exits unasked is replaced; one that exits before it ever listened (a port in use, a
 * refused start) is replaced only a few times, then everything stops with its exit code. SIGTERM and SIGINT are
 * passed on, each process finishes its requests, and this one exits once they all have.
 */
export function runApiProcesses(count: number, logger: Logger): void {
  let stopping = false;
  let failedStarts = 0;
  let exitCode = 0;
  const listened = new WeakSet<Worker>();
  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => listened.add(worker));
  };
  answerMetricsRequests();
  for (let i = 0; i < count; i++) fork();
  logger.info({ processes: count }, `api: ${count} processes share the port`);

  cluster.on('exit', (worker, code, signal) => {
    if (code) exitCode = code;
    if (!stopping) {
      if (!listened.has(worker) && ++failedStarts > RESTARTS_BEFORE_GIVING_UP) {
        logger.error({ code, signal }, 'api processes keep failing to start; stopping');
        stop('failed starts');
        return;
      }
      logger.error({ pid: worker.process.pid, code, signal }, 'an api process exited unexpectedly; starting another');
      fork();
      return;
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  });

  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ why }, 'stopping the api processes');
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(exitCode || 1);
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
