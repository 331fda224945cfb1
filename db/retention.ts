import type { Db } from './client';

/** What the retention job removed, by kind of row. */
export interface RetentionCounts {
  searches: number;
  timerRuns: number;
  timerEvents: number;
}

export interface RetentionRules {
  /** Searches (question, answer, events) older than this are removed. */
  searchesBefore: Date;
  /** Timer runs older than this are removed, unless among the latest `keepRuns` of their timer. */
  runsBefore: Date;
  keepRuns: number;
  /** A timer's remembered event is removed once it is out of every feed window (ends before this)… */
  feedWindowStart: Date;
  /** …and no run has seen it since this (so no kept run names it, and a site that still lists it renews it). */
  eventsUnseenSince: Date;
  /** Rows per statement: each is a short transaction of its own, so no lock is held for long. */
  batch: number;
}

/** Deletes in batches of `rules.batch` until a batch comes back short; returns how many in all. */
async function inBatches(batch: number, step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < batch) return total;
  }
}

/**
 * The data lifecycle's daily pass (docs/decisions/data-lifecycle.md): old searches, old timer runs beyond each timer's latest
 * ones, and remembered events nothing needs any more. Each statement deletes at most `batch` rows by primary
 * key, picked through an index, so writers wait for no long lock.
 */
export async function applyRetention(sql: Db, rules: RetentionRules): Promise<RetentionCounts> {
  const searches = await inBatches(rules.batch, async () => {
    const rows = await sql`
      delete from searches where id in (
        select id from searches where started_at < ${rules.searchesBefore} and status <> 'running' limit ${rules.batch})`;
    return rows.count;
  });
  const timerRuns = await inBatches(rules.batch, async () => {
    const rows = await sql`
      delete from timer_runs where id in (
        select r.id from timer_runs r
        where r.scheduled_for < ${rules.runsBefore} and r.status <> 'running'
          and r.id not in (select k.id from timer_runs k where k.timer_id = r.timer_id
                           order by k.scheduled_for desc limit ${rules.keepRuns})
        limit ${rules.batch})`;
    return rows.count;
  });
  const timerEvents = await inBatches(rules.batch, async () => {
    const rows = await sql`
      delete from timer_events where (timer_id, key) in (
        select timer_id, key from timer_events
        where (feed_until is null or feed_until < ${rules.feedWindowStart}) and last_seen_at < ${rules.eventsUnseenSince}
        limit ${rules.batch})`;
    return rows.count;
  });
  return { searches, timerRuns, timerEvents };
}
