import { type Allowances, creditLeft, type SearchStart, type StartedSearch, startSearchTakingCredit } from './accounts';
import type { Sql } from './client';
import { turnBatch } from './turn-batch';

type Start = (row: SearchStart) => Promise<StartedSearch>;

const starters = new WeakMap<Sql, Map<Allowances, Start>>();

/**
 * `startSearchTakingCredit` with the starts asked for in the same turn of the event loop in one statement
 * (turn-batch.ts, decision 093): a burst of asks admitted together records its searches and takes their credits
 * in one round trip. Each statement holds each user once, as one account row takes one update per statement.
 */
export function startSearchSoon(sql: Sql, row: SearchStart, allowances: Allowances): Promise<StartedSearch> {
  let byAllowances = starters.get(sql);
  if (!byAllowances) {
    byAllowances = new Map();
    starters.set(sql, byAllowances);
  }
  let start = byAllowances.get(allowances);
  if (!start) {
    start = turnBatch<SearchStart, StartedSearch>({
      one: (one) => startSearchTakingCredit(sql, one, allowances),
      many: (rows) => startSearchesTakingCredit(sql, rows, allowances),
      keyOf: (one) => one.userId,
    });
    byAllowances.set(allowances, start);
  }
  return start(row);
}

/** The many-row statement: each row written and charged as the one-row statement does; in the rows' order. */
async function startSearchesTakingCredit(sql: Sql, rows: SearchStart[], allowances: Allowances): Promise<StartedSearch[]> {
  const wanted = rows.map((row) => ({
    user_id: row.userId,
    question: row.question,
    website: row.website,
    model: row.model,
    filters: row.filters ?? null,
  }));
  const recorded = await sql<{ id: string; user_id: string; usage_epoch: number | null }[]>`
    with wanted as (
      select * from jsonb_to_recordset(${sql.json(wanted as never)})
        as r(user_id bigint, question text, website text, model text, filters jsonb)
    ), taken as (
      update accounts set searches_used = searches_used + 1, updated_at = now()
      from wanted where accounts.user_id = wanted.user_id and ${creditLeft(sql, allowances, true)}
      returning accounts.user_id, accounts.usage_epoch
    ), recorded as (
      insert into searches (user_id, timer_run_id, question, website, status, model, filters)
      select user_id, null, question, website, 'running', model, filters from wanted
      returning id, user_id
    )
    select recorded.id, recorded.user_id, taken.usage_epoch from recorded left join taken on taken.user_id = recorded.user_id`;
  // One row per user in a statement: the user names its row.
  const byUser = new Map(recorded.map((r) => [Number(r.user_id), { searchId: Number(r.id), epoch: r.usage_epoch ?? null }]));
  return rows.map((row) => byUser.get(row.userId)!);
}
