import type { Db } from './client';

/**
 * Removes a timer's webhook that answered 410 Gone, if the timer still has that address (the user may have
 * set another meanwhile), and keeps `notice` for the timer listing and the next digest. Whether it did.
 */
export async function disableGoneWebhook(sql: Db, timerId: number, url: string, notice: string): Promise<boolean> {
  const rows = await sql`update timers set webhook_url = null, webhook_secret = null,
                           webhook_gone_notice = ${notice}, webhook_gone_mailed = false
                         where id = ${timerId} and webhook_url = ${url}`;
  return rows.count === 1;
}

/** The gone-webhook sentence a timer's next digest should carry, or null (none, or mailed already). */
export async function pendingWebhookGoneNotice(sql: Db, timerId: number): Promise<string | null> {
  const [row] = await sql<{ notice: string }[]>`select webhook_gone_notice as notice from timers
                                                where id = ${timerId} and not webhook_gone_mailed and webhook_gone_notice is not null`;
  return row?.notice ?? null;
}

/** After a digest carried it: the sentence stays on the timer, but no later digest repeats it. */
export async function markWebhookGoneNoticeMailed(sql: Db, timerId: number): Promise<void> {
  await sql`update timers set webhook_gone_mailed = true where id = ${timerId}`;
}
