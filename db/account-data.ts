import type { Db } from './client';

/**
 * Everything the service keeps about one user, as plain JSON rows, for "Export my data". Secrets that belong
 * to the service rather than to the user (session and API token hashes, feed nonces, webhook signing secrets) are
 * left out; the user's own words (questions, answers, addresses) and what was found for them are all there.
 * A chat channel's address and token are secrets whoever holds them can post with: the export says a channel
 * exists and has them, never what they are (nor the address a delivery went to).
 */
export async function exportUserData(sql: Db, userId: number) {
  const [user] = await sql`select id, email, name, created_at from users where id = ${userId}`;
  if (!user) return null;
  const [account] = await sql`select tier, status, searches_used, period_start, period_end, created_at, updated_at
                              from accounts where user_id = ${userId}`;
  const timers = await sql`select to_jsonb(t) - 'feed_nonce' - 'feed_token_hash' - 'webhook_secret' as timer
                           from timers t where user_id = ${userId} order by id`;
  const runs = await sql`select to_jsonb(r) as run from timer_runs r join timers t on t.id = r.timer_id
                         where t.user_id = ${userId} order by r.id`;
  const searches = await sql`select to_jsonb(s) as search,
                               coalesce((select jsonb_agg(e.event order by e.position) from search_events e where e.search_id = s.id), '[]') as events
                             from searches s where user_id = ${userId} order by s.id`;
  const channels = await sql`select jsonb_build_object('id', c.id, 'timer_id', c.timer_id, 'kind', c.kind, 'has_address', true,
                               'has_token', c.token is not null, 'created_at', c.created_at, 'stopped_at', c.stopped_at,
                               'stopped_notice', c.stopped_notice) as channel
                             from timer_channels c join timers t on t.id = c.timer_id
                             where t.user_id = ${userId} order by c.id`;
  const deliveries = await sql`select to_jsonb(d) - case when d.channel in ('email', 'webhook') then '' else 'target' end as delivery
                               from deliveries d where user_id = ${userId} order by d.id`;
  const apiTokens = await sql`select to_jsonb(t) - 'token_hash' as token from api_tokens t where user_id = ${userId} order by id`;
  return {
    user,
    account: account ?? null,
    timers: timers.map((r) => r.timer),
    timer_channels: channels.map((r) => r.channel),
    timer_runs: runs.map((r) => r.run),
    searches: searches.map((r) => ({ ...(r.search as object), events: r.events })),
    deliveries: deliveries.map((r) => r.delivery),
    api_tokens: apiTokens.map((r) => r.token),
  };
}

/** The user's timers that still have a scheduler in Redis (not deleted), to remove with the account. */
export async function liveTimerIds(sql: Db, userId: number): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`select id from timers where user_id = ${userId} and deleted_at is null`;
  return rows.map((r) => Number(r.id));
}

/** Removes the user and, through the foreign keys, every row of theirs. True when there was one. */
export async function deleteUserRows(sql: Db, userId: number): Promise<boolean> {
  const rows = await sql`delete from users where id = ${userId}`;
  return rows.count === 1;
}
