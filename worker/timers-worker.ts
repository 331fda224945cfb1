import type { GoogleGenAI } from '@google/genai';
import { Worker, type Queue } from 'bullmq';
import type { RedisClient } from '../core/redis/client';
import type { Config } from '../core/config';
import { createDeliveriesQueue, TIMERS_QUEUE, type RunTimerJob } from '../core/jobs';
import { countTimerRun } from '../core/metrics';
import { KEEP_COMPLETED, KEEP_FAILED, timerBackoffStrategy, timerRepeatStrategy } from '../core/timers/job-policy';
import { timerRunLimiter } from '../core/timers/run-limit';
import type { ReconcileResult } from '../core/timers/reconcile';
import { claimReconcilePass } from '../core/timers/reconcile-claim';
import { upkeepPass } from '../core/upkeep';
import { WORKER_DEATHS_ALLOWED } from '../core/timers/worker-deaths';
import type { Logger } from '../core/logger';
import type { Sql } from '../db/client';
import { createRunTimerProcessor, type RunTimerOutcome } from './jobs/run-timer';
import { every } from './every';

/** How often one worker of the fleet re-checks that Redis holds a scheduler for every active timer. */
const RECONCILE_EVERY_MS = 5 * 60_000;

export interface WorkerDeps {
  config: Config;
  sql: Sql;
  connection: RedisClient;
  queue: Queue<RunTimerJob>;
  gemini: GoogleGenAI;
  logger: Logger;
  /** BullMQ lock and stalled-check timings (ms); BullMQ's defaults (30 s) unless given. */
  lockDuration?: number;
  stalledInterval?: number;
  /** 0 turns the periodic reconcile off (each worker then runs one pass at start, unclaimed). */
  reconcileEveryMs?: number;
}

export interface TimersWorker {
  worker: Worker<RunTimerJob>;
  /** Runs one reconcile pass now (also run at start and periodically), then ends abandoned runs and sessions. */
  reconcile: () => Promise<ReconcileResult>;
  /**
   * The pass run at start, while the worker already takes jobs. 'claimed-elsewhere' when another worker's pass
   * began within the period (a fleet started together runs one); 'failed' when it failed (logged, and the
   * periodic pass tries again).
   */
  startPass: Promise<ReconcileResult | 'claimed-elsewhere' | 'failed'>;
  /** Stops taking jobs and waits for the running ones to finish (SIGTERM); `force` abandons them. */
  close: (force?: boolean) => Promise<void>;
}

/** Starts the BullMQ worker on the timers queue, and beside it a first reconcile pass. */
export async function startTimersWorker(deps: WorkerDeps): Promise<TimersWorker> {
  const { config, connection, logger, queue, sql } = deps;
  // One pass (core/upkeep.ts): schedulers reconciled, abandoned work ended, sessions and old rows removed.
  const reconcile = () => upkeepPass({ sql, redis: connection, queue, logger, queuePrefix: config.queuePrefix });

  // Runs enqueue their emails and webhooks here; the deliveries worker (deliveries-worker.ts) sends them.
  const deliveriesQueue = createDeliveriesQueue(connection, config.queuePrefix);
  const processor = createRunTimerProcessor({ ...deps, timersQueue: queue, deliveriesQueue, redis: connection });
  const worker = new Worker<RunTimerJob>(TIMERS_QUEUE, processor, {
    connection,
    prefix: config.queuePrefix,
    concurrency: config.worker.concurrency,
    // Counted in Redis per queue, so this is one limit for all workers together (TIMER_RUNS_PER_MINUTE).
    limiter: timerRunLimiter(config.worker.timerRunsPerMinute),
    // Worker-wide rather than stored in every job (core/timers/job-policy.ts): the delays of the timers' backoff,
    // how the next fire is computed when a fire is taken, and how long finished jobs stay for Bull Board.
    settings: { backoffStrategy: timerBackoffStrategy, repeatStrategy: timerRepeatStrategy },
    // BullMQ fails a Run-now job (no scheduler) itself once its stalls pass this count; at WORKER_DEATHS_ALLOWED
    // the run's own check comes first and fails it with its sentence (core/timers/worker-deaths.ts).
    maxStalledCount: WORKER_DEATHS_ALLOWED,
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
    ...(deps.lockDuration ? { lockDuration: deps.lockDuration } : {}),
    ...(deps.stalledInterval ? { stalledInterval: deps.stalledInterval } : {}),
  });
  worker.on('completed', (_job, outcome: RunTimerOutcome) => countTimerRun(outcome));
  worker.on('failed', (job, err) => {
    // finishedOn is set only when BullMQ gave up on the job; otherwise it waits for another attempt.
    countTimerRun(job?.finishedOn ? 'failed' : 'retrying');
    logger.warn({ jobId: job?.id, err: err.message }, 'timer job failed');
  });
  worker.on('error', (err) => logger.error({ err: err.message }, 'worker error'));
  await worker.waitUntilReady();

  // A pass reads every timer and scheduler, so one per period is enough for the fleet: the first worker to claim
  // the period runs it. That holds at start too, so N workers started together (a deploy) run one pass, not N.
  // A Redis flush takes the claim with the rest, so the next start or tick runs a pass; a restore that brings
  // the claim back delays that pass until the claim lapses (under one period) and a worker's timer ticks.
  const period = deps.reconcileEveryMs ?? RECONCILE_EVERY_MS;
  const reconcileIfClaimed = async () =>
    period <= 0 || (await claimReconcilePass(connection, config.queuePrefix, period)) ? reconcile() : ('claimed-elsewhere' as const);

  // Beside the jobs, not before them: at a million timers the pass takes about a minute, and the fires due
  // meanwhile should not wait for it (docs/decisions/timers.md).
  const startPass = reconcileIfClaimed().catch((err) => {
    logger.warn({ err: (err as Error).message }, 'reconcile at start failed; the periodic pass tries again');
    return 'failed' as const;
  });
  const stopReconciling = every(period, reconcileIfClaimed, logger, 'reconcile');

  logger.info({ concurrency: config.worker.concurrency }, 'worker ready');
  return {
    worker,
    reconcile,
    startPass,
    close: async (force = false) => {
      stopReconciling();
      await worker.close(force);
      await deliveriesQueue.close();
    },
  };
}
