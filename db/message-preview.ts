import type { Db } from './client';
import type { DeliveryToSend } from './deliveries';
import { type RunEvent, runEvents } from './events';

/** The user's own timer with what building its messages needs, shaped as a delivery's: its webhook secret and its owner. */
export type TimerForMessages = Pick<DeliveryToSend, 'timer' | 'user'>;

/** The user's own active timer for a preview or a test send; null when it is unknown, deleted or someone else's. */
export async function timerForMessages(sql: Db, userId: number, timerId: number): Promise<TimerForMessages | null> {
  const [r] = await sql<
    {
      id: string;
      question: string;
      website: string;
      timezone: string;
      email_enabled: boolean;
      webhook_url: string | null;
      webhook_secret: string | null;
      paused_reason: string | null;
      user_id: string;
      user_email: string;
      user_name: string;
    }[]
  >`select t.id, t.question, t.website, t.timezone, t.email_enabled, t.webhook_url, t.webhook_secret, t.paused_reason,
      u.id as user_id, u.email as user_email, u.name as user_name
    from timers t join users u on u.id = t.user_id
    where t.id = ${timerId} and t.user_id = ${userId} and t.deleted_at is null`;
  if (!r) return null;
  return {
    timer: {
      id: Number(r.id),
      question: r.question,
      website: r.website,
      timezone: r.timezone,
      deleted: false,
      email: r.email_enabled,
      webhookUrl: r.webhook_url,
      webhookSecret: r.webhook_secret,
      pausedReason: r.paused_reason,
    },
    user: { id: Number(r.user_id), email: r.user_email, name: r.user_name },
  };
}

/** The timer's latest answered run with the events it found (new ones first); null before the first. */
export async function lastAnsweredRun(
  sql: Db,
  timerId: number,
): Promise<{ id: number; scheduledFor: Date; status: string; error: string | null; events: RunEvent[] } | null> {
  const [r] = await sql<{ id: string; scheduled_for: Date; status: string; error: string | null }[]>`
    select id, scheduled_for, status, error from timer_runs
    where timer_id = ${timerId} and status = 'succeeded'
    order by scheduled_for desc, id desc limit 1`;
  if (!r) return null;
  return { id: Number(r.id), scheduledFor: r.scheduled_for, status: r.status, error: r.error, events: await runEvents(sql, Number(r.id)) };
}
