import type { ChannelKind } from '../core/delivery/channels/channel';
import type { Db } from './client';

/** A timer's chat or push channel (migration 029). `url` and `token` are secrets: never in a reply as they are. */
export interface TimerChannel {
  id: number;
  timerId: number;
  kind: ChannelKind;
  url: string;
  token: string | null;
  createdAt: Date;
  /** Set when the service said the address is gone; the channel gets nothing until it is removed and added again. */
  stoppedAt: Date | null;
  stoppedNotice: string | null;
}

type Row = {
  id: string;
  timer_id: string;
  kind: ChannelKind;
  url: string;
  token: string | null;
  created_at: Date;
  stopped_at: Date | null;
  stopped_notice: string | null;
};

const toChannel = (r: Row): TimerChannel => ({
  id: Number(r.id),
  timerId: Number(r.timer_id),
  kind: r.kind,
  url: r.url,
  token: r.token,
  createdAt: r.created_at,
  stoppedAt: r.stopped_at,
  stoppedNotice: r.stopped_notice,
});

/** At most this many channels on one timer: each run posts once to each. */
export const MAX_CHANNELS_PER_TIMER = 10;

/** The channels of these timers, oldest first, by timer. */
export async function listTimerChannels(sql: Db, timerIds: number[]): Promise<Map<number, TimerChannel[]>> {
  const out = new Map<number, TimerChannel[]>();
  if (timerIds.length === 0) return out;
  const rows = await sql<Row[]>`select * from timer_channels where timer_id = any(${timerIds}::bigint[]) order by timer_id, id`;
  for (const r of rows) {
    const c = toChannel(r);
    out.set(c.timerId, [...(out.get(c.timerId) ?? []), c]);
  }
  return out;
}

/** The channels a run's messages go to: those not stopped. */
export async function activeTimerChannels(sql: Db, timerId: number): Promise<TimerChannel[]> {
  const rows = await sql<Row[]>`select * from timer_channels where timer_id = ${timerId} and stopped_at is null order by id`;
  return rows.map(toChannel);
}

/**
 * Adds a channel to a timer (the caller holds the timer's lock). The same kind and address again replaces the
 * token and starts a stopped channel again; null when the timer has MAX_CHANNELS_PER_TIMER already.
 */
export async function addTimerChannel(
  sql: Db,
  timerId: number,
  c: { kind: ChannelKind; url: string; token: string | null },
): Promise<TimerChannel | null> {
  const [again] = await sql<Row[]>`
    update timer_channels set token = ${c.token}, stopped_at = null, stopped_notice = null, notice_mailed = true
    where timer_id = ${timerId} and kind = ${c.kind} and url = ${c.url}
    returning *`;
  if (again) return toChannel(again);
  const [row] = await sql<Row[]>`
    insert into timer_channels (timer_id, kind, url, token)
    select ${timerId}, ${c.kind}, ${c.url}, ${c.token}
    where (select count(*) from timer_channels where timer_id = ${timerId}) < ${MAX_CHANNELS_PER_TIMER}
    returning *`;
  return row ? toChannel(row) : null;
}

/** Removes one channel of a timer; false when the timer has no such channel. */
export async function removeTimerChannel(sql: Db, timerId: number, channelId: number): Promise<boolean> {
  const rows = await sql`delete from timer_channels where id = ${channelId} and timer_id = ${timerId}`;
  return rows.count === 1;
}

/**
 * Stops a channel whose service said the address is gone, if it still has the address the message was sent
 * to, keeping `notice` for the timer and the next digest. Whether it did.
 */
export async function stopTimerChannel(sql: Db, channelId: number, url: string, notice: string): Promise<boolean> {
  const rows = await sql`
    update timer_channels set stopped_at = now(), stopped_notice = ${notice}, notice_mailed = false
    where id = ${channelId} and url = ${url} and stopped_at is null`;
  return rows.count === 1;
}

/** The stopped-channel sentences a timer's next digest should carry (not mailed yet). */
export async function pendingChannelNotices(sql: Db, timerId: number): Promise<string[]> {
  const rows = await sql<{ notice: string }[]>`
    select stopped_notice as notice from timer_channels
    where timer_id = ${timerId} and not notice_mailed and stopped_notice is not null order by id`;
  return rows.map((r) => r.notice);
}

/** After a digest carried them: the sentences stay on the timer, but no later digest repeats them. */
export async function markChannelNoticesMailed(sql: Db, timerId: number): Promise<void> {
  await sql`update timer_channels set notice_mailed = true where timer_id = ${timerId} and not notice_mailed`;
}
