import type { Queue } from 'bullmq';
import type { Sql } from '../../db/client';
import type { RunTimerJob } from '../jobs';
import type { Logger } from '../logger';
import { observeReconcilePass } from '../metrics';
import type { RedisClient } from '../redis/client';
import { type ReconcileResult, reconcileSchedulers } from './reconcile';
import { sweepAbandonedRuns, sweepLostWork } from './sweep-abandoned-runs';

export interface RepairDeps {
  sql: Sql;
  redis: RedisClient;
  queue: Queue<RunTimerJob>;
  logger: Logger;
}

/**
 * Repairs what a lost Redis or a stopped process leaves behind: Redis's schedulers made to match Postgres's
 * timers (reconcile.ts), then the work nobody will finish ended (abandoned and lost runs, searches left running).
 */
export async function repairTimers(deps: RepairDeps): Promise<ReconcileResult> {
  const { sql, logger } = deps;
  const start = performance.now();
  const result = await reconcileSchedulers(sql, deps.redis, deps.queue);
  observeReconcilePass((performance.now() - start) / 1000, result);
  if (result.upserted || result.removed) logger.info(result, 'timer schedulers reconciled');
  const abandoned = await sweepAbandonedRuns(sql);
  if (abandoned) logger.warn({ abandoned }, 'ended timer runs abandoned by a stopped worker');
  const lost = await sweepLostWork(sql);
  if (lost.lostRuns) logger.warn({ runs: lost.lostRuns }, 'skipped Run-now runs whose job no worker took (lost from the queue)');
  if (lost.searches) logger.warn({ searches: lost.searches }, 'ended searches left running by a stopped process');
  if (lost.events) logger.warn({ searches: lost.events }, 'ended the pending events of searches whose events job was lost');
  return result;
}
