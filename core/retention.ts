import { observeRetention } from './metrics';
import type { RedisClient } from './redis/client';
import type { Sql } from '../db/client';
import { feedWindowStart } from './events/feed-window';
import { applyRetention, type RetentionCounts } from '../db/retention';

const DAY_MS = 24 * 60 * 60_000;
/** What is kept how long (docs/decisions/data-lifecycle.md); the README's operations section says the same. */
export const KEEP_SEARCHES_DAYS = 180;
export const KEEP_RUNS_DAYS = 90;
export const KEEP_RUNS_PER_TIMER = 50;
const BATCH = 1000;

/** The claim's key: one worker of the fleet runs the pass each day. */
export const retentionClaimKey = (queuePrefix: string) => `${queuePrefix}:retention-pass`;

/** The day's retention pass, when no worker has run it in the last 23 hours; null when another one has. */
export async function retentionIfDue(sql: Sql, redis: RedisClient, queuePrefix: string, now = new Date()): Promise<RetentionCounts | null> {
  const claimed = (await redis.set(retentionClaimKey(queuePrefix), '1', 'PX', DAY_MS - 60 * 60_000, 'NX')) === 'OK';
  if (!claimed) return null;
  const counts = await applyRetention(sql, {
    searchesBefore: new Date(now.getTime() - KEEP_SEARCHES_DAYS * DAY_MS),
    runsBefore: new Date(now.getTime() - KEEP_RUNS_DAYS * DAY_MS),
    keepRuns: KEEP_RUNS_PER_TIMER,
    feedWindowStart: feedWindowStart(now),
    eventsUnseenSince: new Date(now.getTime() - KEEP_RUNS_DAYS * DAY_MS),
    batch: BATCH,
  });
  observeRetention(counts);
  return counts;
}
