import { type Event, eventSchema } from '../core/contract/event';
import type { Db } from './client';

export interface CursorEvent {
  seq: number;
  runId: number;
  event: Event;
  changed: boolean;
}

/**
 * The new or changed events of the user's own timer recorded after `afterSeq`, oldest first, at most `limit`;
 * null when the timer is not theirs. `seq` is timer_run_events' cursor (migration 020): per timer it grows in
 * commit order, so a client that read up to N misses nothing by asking for what is after N.
 */
export async function timerEventsAfter(
  sql: Db,
  userId: number,
  timerId: number,
  afterSeq: number,
  limit: number,
): Promise<CursorEvent[] | null> {
  const [timer] = await sql`select 1 from timers where id = ${timerId} and user_id = ${userId} and deleted_at is null`;
  if (!timer) return null;
  const rows = await sql<{ seq: string; run_id: string; event: unknown; changed: boolean }[]>`
    select e.seq, e.run_id, e.event, e.changed from timer_run_events e join timer_runs r on r.id = e.run_id
    where r.timer_id = ${timerId} and e.seq > ${afterSeq} and (e.is_new or e.changed)
    order by e.seq limit ${limit}`;
  return rows.map((r) => ({ seq: Number(r.seq), runId: Number(r.run_id), event: eventSchema.parse(r.event), changed: r.changed }));
}
