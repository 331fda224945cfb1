import type { Event } from '../core/contract/event';
import type { ChannelKind } from '../core/delivery/channels/channel';
import type { Db } from './client';

/** Email, the timer's webhook, or one of its chat and push channels (named by its service; `channelId` says which). */
export type DeliveryChannel = 'email' | 'webhook' | ChannelKind;
/** digest: new or changed events; paused: the timer paused itself; out-of-searches: runs are being skipped. */
export type DeliveryKind = 'digest' | 'paused' | 'out-of-searches';
export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';

export interface NewDelivery {
  timerId: number;
  runId: number;
  userId: number;
  channel: DeliveryChannel;
  kind: DeliveryKind;
  usageEpoch?: number | null;
  events?: Event[];
  /** The timer's channel (timer_channels) a Slack, Discord, Teams or ntfy message goes to. */
  channelId?: number;
}

/** A claimed delivery with what sending it needs: the timer, the run and the user's address. */
export interface DeliveryToSend {
  id: number;
  channel: DeliveryChannel;
  kind: DeliveryKind;
  events: Event[];
  attempts: number;
  /** Where this message goes, fixed when it was recorded (null on rows older than migration 014). */
  target: string | null;
  /** For a chat or push channel: the channel as it is now (null once removed), its access token, whether it is stopped. */
  channelRow: { id: number; url: string; token: string | null; stopped: boolean } | null;
  timer: {
    id: number;
    question: string;
    website: string;
    timezone: string;
    deleted: boolean;
    email: boolean;
    webhookUrl: string | null;
    /** The secret webhooks are signed with (docs/decisions/delivery.md); null on timers saved before it. */
    webhookSecret: string | null;
    pausedReason: string | null;
  };
  run: { id: number; scheduledFor: Date; status: string; error: string | null };
  user: { id: number; email: string; name: string };
}

export interface DeliveryState {
  status: DeliveryStatus;
  at: Date;
  error: string | null;
}

/**
 * Records a message before anything is sent. The unique keys ((run, channel, kind), and one out-of-searches
 * notice per user, channel and allowance period) make a repeated call land on the same row. Returns the id
 * to enqueue, or null when there is nothing (left) to send.
 */
export async function recordDelivery(sql: Db, d: NewDelivery): Promise<number | null> {
  const [row] = await sql<{ id: string }[]>`
    insert into deliveries (timer_id, run_id, user_id, channel, kind, usage_epoch, events, target, channel_id)
    select ${d.timerId}, ${d.runId}, ${d.userId}, ${d.channel}, ${d.kind}, ${d.usageEpoch ?? null},
           ${sql.json((d.events ?? []) as never)},
           case when ${d.channel} = 'webhook' then t.webhook_url when ${d.channel} = 'email' then u.email else c.url end,
           c.id
    from users u left join timers t on t.id = ${d.timerId}
      left join timer_channels c on c.id = ${d.channelId ?? null}::bigint and c.timer_id = ${d.timerId}
    where u.id = ${d.userId} and (${d.channelId ?? null}::bigint is null or c.id is not null)
    on conflict do nothing
    returning id`;
  if (row) return Number(row.id);
  // Recorded earlier (e.g. the after-run step ran again): enqueue again only while it is still unsent.
  const [existing] = await sql<{ id: string }[]>`
    select id from deliveries
    where run_id = ${d.runId} and channel = ${d.channel} and kind = ${d.kind} and status = 'pending'
      and channel_id is not distinct from ${d.channelId ?? null}::bigint`;
  return existing ? Number(existing.id) : null;
}

type ClaimRow = {
  id: string;
  channel: DeliveryChannel;
  kind: DeliveryKind;
  events: Event[];
  attempts: number;
  target: string | null;
  channel_id: string | null;
  channel_url: string | null;
  channel_token: string | null;
  channel_stopped: boolean | null;
  webhook_secret: string | null;
  timer_id: string;
  question: string;
  website: string;
  timezone: string;
  deleted_at: Date | null;
  email_enabled: boolean;
  webhook_url: string | null;
  paused_reason: string | null;
  run_id: string;
  scheduled_for: Date;
  run_status: string;
  run_error: string | null;
  user_id: string;
  user_email: string;
  user_name: string;
};

/**
 * Takes the delivery for one sending attempt: only a pending (new, or waiting for its retry) or failed row can
 * be taken, so a message already sent, or being sent by another execution, is not sent again. A process that
 * dies in the middle of sending leaves the row 'sending' until recoverStuckDeliveries hands it out again: then
 * the receiver may get it twice, with the same id (Message-ID, webhook-id) to drop the repeat by (docs/decisions/delivery.md).
 */
export async function claimDelivery(sql: Db, id: number): Promise<DeliveryToSend | null> {
  const [r] = await sql<ClaimRow[]>`
    with claimed as (
      update deliveries set status = 'sending', attempts = attempts + 1, updated_at = now()
      where id = ${id} and status in ('pending', 'failed')
      returning *
    )
    select d.id, d.channel, d.kind, d.events, d.attempts, d.target,
      c.id as channel_id, c.url as channel_url, c.token as channel_token, c.stopped_at is not null as channel_stopped,
      t.id as timer_id, t.question, t.website, t.timezone, t.deleted_at, t.email_enabled, t.webhook_url, t.webhook_secret,
      t.paused_reason,
      r.id as run_id, r.scheduled_for, r.status as run_status, r.error as run_error,
      u.id as user_id, u.email as user_email, u.name as user_name
    from claimed d
    join timers t on t.id = d.timer_id
    join timer_runs r on r.id = d.run_id
    join users u on u.id = d.user_id
    left join timer_channels c on c.id = d.channel_id`;
  if (!r) return null;
  return {
    id: Number(r.id),
    channel: r.channel,
    kind: r.kind,
    events: r.events,
    attempts: r.attempts,
    target: r.target,
    channelRow: r.channel_id
      ? { id: Number(r.channel_id), url: r.channel_url!, token: r.channel_token, stopped: r.channel_stopped === true }
      : null,
    timer: {
      id: Number(r.timer_id),
      question: r.question,
      website: r.website,
      timezone: r.timezone,
      deleted: r.deleted_at !== null,
      email: r.email_enabled,
      webhookUrl: r.webhook_url,
      webhookSecret: r.webhook_secret,
      pausedReason: r.paused_reason,
    },
    run: { id: Number(r.run_id), scheduledFor: r.scheduled_for, status: r.run_status, error: r.run_error },
    user: { id: Number(r.user_id), email: r.user_email, name: r.user_name },
  };
}

/**
 * Ends an attempt: sent, retrying (back to pending with the error, for the next attempt), failed (finally: no
 * attempt is left, or it cannot succeed) or skipped (nothing to send any more).
 */
export async function endDeliveryAttempt(
  sql: Db,
  id: number,
  outcome: 'sent' | 'retrying' | 'failed' | 'skipped',
  error: string | null = null,
) {
  const status = outcome === 'retrying' ? 'pending' : outcome;
  await sql`update deliveries set status = ${status}, error = ${error}, updated_at = now(),
              sent_at = case when ${status} = 'sent' then now() else sent_at end
            where id = ${id} and status = 'sending'`;
}

export async function getDeliveryStatus(
  sql: Db,
  id: number,
): Promise<{ status: DeliveryStatus; attempts: number; error: string | null } | null> {
  const [r] = await sql<{ status: DeliveryStatus; attempts: number; error: string | null }[]>`
    select status, attempts, error from deliveries where id = ${id}`;
  return r ?? null;
}

/** Pending deliveries recorded before `before`: their job may have been lost (Redis down when enqueued). */
export async function listStalePendingDeliveries(sql: Db, before: Date, limit = 500): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`
    select id from deliveries where status = 'pending' and created_at < ${before} order by created_at limit ${limit}`;
  return rows.map((r) => Number(r.id));
}

/**
 * Deliveries left 'sending' since before `before` by a worker that stopped mid-send: back to pending, to be
 * sent again (the receiver may then get it twice, with the same id). Returns their ids, to enqueue.
 */
export async function recoverStuckDeliveries(sql: Db, before: Date, error: string, limit = 500): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`
    update deliveries set status = 'pending', error = ${error}, updated_at = now()
    where id in (select id from deliveries where status = 'sending' and updated_at < ${before} order by updated_at limit ${limit})
      and status = 'sending'
    returning id`;
  return rows.map((r) => Number(r.id));
}

/** The latest delivery of each chat or push channel, for Manage Timers. */
export async function latestChannelDeliveries(sql: Db, channelIds: number[]): Promise<Map<number, DeliveryState>> {
  const out = new Map<number, DeliveryState>();
  if (channelIds.length === 0) return out;
  const rows = await sql<{ channel_id: string; status: DeliveryStatus; at: Date; error: string | null }[]>`
    select distinct on (channel_id) channel_id, status, coalesce(sent_at, updated_at) as at, error
    from deliveries where channel_id = any(${channelIds}::bigint[])
    order by channel_id, created_at desc`;
  for (const r of rows) out.set(Number(r.channel_id), { status: r.status, at: r.at, error: r.error });
  return out;
}

/** The latest email and webhook delivery of each timer, for Manage Timers. */
export async function latestDeliveries(sql: Db, timerIds: number[]): Promise<Map<number, Partial<Record<DeliveryChannel, DeliveryState>>>> {
  const out = new Map<number, Partial<Record<DeliveryChannel, DeliveryState>>>();
  if (timerIds.length === 0) return out;
  const rows = await sql<{ timer_id: string; channel: DeliveryChannel; status: DeliveryStatus; at: Date; error: string | null }[]>`
    select distinct on (timer_id, channel) timer_id, channel, status, coalesce(sent_at, updated_at) as at, error
    from deliveries where timer_id = any(${timerIds}::bigint[]) and channel in ('email', 'webhook')
    order by timer_id, channel, created_at desc`;
  for (const r of rows) {
    const id = Number(r.timer_id);
    out.set(id, { ...out.get(id), [r.channel]: { status: r.status, at: r.at, error: r.error } });
  }
  return out;
}
