import type { AnswerCorrection } from '../core/contract/answer-correction';
import { answerCorrections } from '../core/events/answer-corrections';
import type { Db } from '../db/client';
import { allEventsOfRuns } from '../db/events';
import type { LatestRun } from '../db/timers';

/**
 * The corrections of runs' answers, read from each run's checked events (kept and left out alike), by run id:
 * a run's answer stays stored as Gemini wrote it and is marked where it is shown, as a search's is.
 */
export async function runAnswerCorrections(
  sql: Db,
  runs: { id: number; answer: string | null }[],
): Promise<Map<number, AnswerCorrection[]>> {
  const answered = runs.filter((r) => r.answer !== null);
  const events = await allEventsOfRuns(
    sql,
    answered.map((r) => r.id),
  );
  return new Map(answered.map((r) => [r.id, answerCorrections(r.answer!, events.get(r.id) ?? [])]));
}

/** Each timer's latest run (as listUserTimers gives it) with its answer's corrections, by timer id. */
export async function latestRunsMarked<T extends { id: number; lastRun: LatestRun | null }>(
  sql: Db,
  timers: T[],
): Promise<Map<number, (LatestRun & { corrections: AnswerCorrection[] }) | null>> {
  const runs = timers.flatMap((t) => (t.lastRun ? [t.lastRun] : []));
  const corrections = await runAnswerCorrections(sql, runs);
  return new Map(timers.map((t) => [t.id, t.lastRun ? { ...t.lastRun, corrections: corrections.get(t.lastRun.id) ?? [] } : null]));
}
