import type { TimerFilters } from '../core/contract/timer-filters';
import type { Sql, Tx } from './client';

export type SearchStatus = 'running' | 'answered' | 'failed' | 'refused';
/** Whether a search's events are stored: 'pending' while an ask's are still being found after its reply. */
export type EventsStatus = 'pending' | 'done' | 'failed';

/** Records a search as it starts; returns its id for the later updates. */
export async function startSearchRecord(
  sql: Sql,
  row: { userId: number; question: string; website: string; model: string; timerRunId?: number | null; filters?: TimerFilters | null },
): Promise<number> {
  const filters = row.filters ? sql.json(row.filters as never) : null;
  const [rec] = await sql<{ id: string }[]>`
    insert into searches (user_id, timer_run_id, question, website, status, model, filters)
    values (${row.userId}, ${row.timerRunId ?? null}, ${row.question}, ${row.website}, 'running', ${row.model}, ${filters})
    returning id`;
  return Number(rec!.id);
}

/** How a search ended, as its row records it. */
interface SearchOutcome {
  status: Exclude<SearchStatus, 'running'>;
  error?: string | null;
  answerChars?: number;
  /** What each of the search's Gemini calls used, with its estimated USD: the answer's, then the extraction's. */
  calls?: CallUsage[];
  /** When the first answer text went out (time to first chunk); written with the outcome, not on its own. */
  firstChunkAt?: Date | null;
  /** The answer text (GET /api/searches/:id shows it). */
  answer?: string | null;
  /** Google's Search Suggestions HTML of a grounded answer. */
  searchSuggestions?: string | null;
  /** 'pending' when the events are found after the answer (finishSearchEvents ends it); 'done' otherwise. */
  eventsStatus?: EventsStatus;
  /** With 'pending': what finding the events reads (core/search/events-job.ts), kept until they end. */
  eventsInput?: unknown;
}

/** Closes a search record with its outcome. */
export async function finishSearchRecord(sql: Sql, id: number, outcome: SearchOutcome): Promise<void> {
  await sql`
    update searches set
      status = ${outcome.status},
      error = ${outcome.error ?? null},
      answer_chars = ${outcome.answerChars ?? 0},
      ${usageAdded(sql, outcome.calls ?? [])},
      first_chunk_at = ${outcome.firstChunkAt ?? null},
      answer = ${outcome.answer ?? null},
      search_suggestions = ${outcome.searchSuggestions ?? null},
      events_status = ${outcome.eventsStatus ?? 'done'},
      events_input = ${outcome.eventsInput === undefined ? null : sql.json(outcome.eventsInput as never)},
      finished_at = now()
    where id = ${id}`;
}

/**
 * Ends a still-running search as failed and gives its credit back (`giveBack`, null when it holds none), in one
 * transaction and once: only the call that moves the row from 'running' refunds, so a failure written twice (or
 * after the sweep of lost searches) never refunds twice. The partial answer, when text was shown, is kept with
 * the failure. Returns whether this call ended the search.
 */
export async function failSearchGivingBack(
  sql: Sql,
  id: number,
  outcome: Omit<SearchOutcome, 'status' | 'eventsStatus' | 'searchSuggestions'>,
  giveBack: ((tx: Tx) => Promise<void>) | null,
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const rows = await tx`
      update searches set
        status = 'failed',
        error = ${outcome.error ?? null},
        answer_chars = ${outcome.answerChars ?? 0},
        ${usageAdded(tx, outcome.calls ?? [])},
        first_chunk_at = ${outcome.firstChunkAt ?? null},
        answer = ${outcome.answer ?? null},
        finished_at = now()
      where id = ${id} and status = 'running'`;
    if (rows.count === 0) return false;
    if (giveBack) await giveBack(tx);
    return true;
  });
}

/** A search whose events are still to be found: who asked, with which filters, and what finding them reads. */
export interface PendingEvents {
  userId: number;
  filters: TimerFilters | null;
  input: unknown;
}

/** The pending events of a search (finishSearchRecord's `eventsInput`); null once they have ended. */
export async function pendingEventsOf(sql: Sql, id: number): Promise<PendingEvents | null> {
  const [row] = await sql<{ user_id: string; filters: TimerFilters | null; events_input: unknown }[]>`
    select user_id, filters, events_input from searches
    where id = ${id} and events_status = 'pending' and events_input is not null`;
  return row ? { userId: Number(row.user_id), filters: row.filters, input: row.events_input } : null;
}

/**
 * Ends a search's pending events (docs/decisions/ask.md): 'done' or 'failed', with the extraction call's usage added to
 * the row's, and what finding them read let go. Only a pending search changes, so a job run twice adds its usage once.
 */
export async function finishSearchEvents(
  sql: Sql,
  id: number,
  outcome: { status: Exclude<EventsStatus, 'pending'>; calls: CallUsage[] },
): Promise<boolean> {
  const rows = await sql`
    update searches set events_status = ${outcome.status}, events_input = null, ${usageAdded(sql, outcome.calls)}
    where id = ${id} and events_status = 'pending'`;
  return rows.count > 0;
}

/** A Gemini call's usage as a search row keeps it (core/gemini/usage.ts reads it from the reply). */
export interface CallUsage {
  calls: number;
  promptTokens: number;
  outputTokens: number;
  thinkingTokens: number;
  groundingQueries: number;
  costUsd: number;
}

const total = (calls: CallUsage[], field: Exclude<keyof CallUsage, 'costUsd'>) => calls.reduce((sum, c) => sum + c[field], 0);

// Each call's dollars rounded to the column's micro-dollars (numeric(12, 6)) before they are added up: the total is
// the same as when each call's usage was its own update, rounded as it was stored.
const costAdded = (sql: Sql | Tx, calls: CallUsage[]) =>
  calls.reduce((sum, c) => sql`${sum} + round(${c.costUsd}::numeric, 6)`, sql`cost_usd`);

// Added to what the row holds (zero when it starts): one write for all of a search's calls.
const usageAdded = (sql: Sql | Tx, calls: CallUsage[]) => sql`
  gemini_calls = gemini_calls + ${total(calls, 'calls')},
  prompt_tokens = coalesce(prompt_tokens, 0) + ${total(calls, 'promptTokens')},
  output_tokens = coalesce(output_tokens, 0) + ${total(calls, 'outputTokens')},
  thinking_tokens = thinking_tokens + ${total(calls, 'thinkingTokens')},
  grounding_queries = grounding_queries + ${total(calls, 'groundingQueries')},
  cost_usd = ${costAdded(sql, calls)}`;

/**
 * The estimated USD of every search's Gemini calls since `since` (the month's first moment, UTC), answered or
 * not: what GEMINI_MONTHLY_BUDGET_USD is held against. Calls that are not searches (Describe it) are a line of
 * their own (db/gemini-costs.ts), so a flood of them never pauses everyone's timer runs.
 */
export async function monthSpendUsd(sql: Sql, since: Date): Promise<number> {
  const [row] = await sql<{ usd: string }[]>`select coalesce(sum(cost_usd), 0) as usd from searches where started_at >= ${since}`;
  return Number(row!.usd);
}

export interface SearchRow {
  id: number;
  status: SearchStatus;
  question: string;
  website: string;
  error: string | null;
  answer_chars: number;
  model: string;
  prompt_tokens: number | null;
  output_tokens: number | null;
  first_chunk_at: Date | null;
  finished_at: Date | null;
}

/** A user's search rows as stored (status, tokens, timings), newest first: for support and tests, not the history people see. */
export async function searchRowsOf(sql: Sql, userId: number, limit = 50): Promise<SearchRow[]> {
  const rows = await sql<(SearchRow & { id: string })[]>`
    select id, status, question, website, error, answer_chars, model, prompt_tokens, output_tokens, first_chunk_at, finished_at
    from searches where user_id = ${userId} order by started_at desc, id desc limit ${limit}`;
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** A line of a user's search history (GET /api/searches). */
export interface HistorySearch {
  id: number;
  question: string;
  website: string;
  startedAt: Date;
  eventsCount: number;
  eventsStatus: EventsStatus;
}

/**
 * A user's own answered searches (asked on the page or the API, not a timer's runs), newest first: at most
 * `limit`, those older than the search `before` names when it is given (its own id, a keyset cursor on the
 * history's order; a cursor naming a search that is gone gives an empty page).
 */
export async function searchHistory(sql: Sql, userId: number, page: { before: number | null; limit: number }): Promise<HistorySearch[]> {
  const older =
    page.before === null
      ? sql``
      : sql`and (s.started_at, s.id) < (select started_at, id from searches where id = ${page.before} and user_id = ${userId})`;
  const rows = await sql<
    { id: string; question: string; website: string; started_at: Date; events_count: number; events_status: EventsStatus }[]
  >`
    select s.id, s.question, s.website, s.started_at, s.events_status,
           (select count(*)::int from search_events e where e.search_id = s.id and not e.hidden) as events_count
    from searches s
    where s.user_id = ${userId} and s.timer_run_id is null and s.status = 'answered' ${older}
    order by s.started_at desc, s.id desc
    limit ${page.limit}`;
  return rows.map((r) => ({
    id: Number(r.id),
    question: r.question,
    website: r.website,
    startedAt: r.started_at,
    eventsCount: r.events_count,
    eventsStatus: r.events_status,
  }));
}

export interface SearchWithAnswer {
  id: number;
  question: string;
  website: string;
  status: SearchStatus;
  /** Why a failed or refused search ended so. */
  error: string | null;
  answer: string | null;
  /** Google's Search Suggestions HTML of a grounded answer, as Gemini sent it (not sanitised). */
  searchSuggestions: string | null;
  eventsStatus: EventsStatus;
  /** Events found beyond those a search keeps (core/search/stored-events.ts), not stored. */
  eventsLeftOut: number;
}

/** One of the user's own searches, with its answer; null for another user's or an unknown one. */
export async function getUserSearch(sql: Sql, userId: number, id: number): Promise<SearchWithAnswer | null> {
  const [row] = await sql<
    {
      id: string;
      question: string;
      website: string;
      status: SearchStatus;
      error: string | null;
      answer: string | null;
      search_suggestions: string | null;
      events_status: EventsStatus;
      events_left_out: number;
    }[]
  >`
    select id, question, website, status, error, answer, search_suggestions, events_status, events_left_out
    from searches where id = ${id} and user_id = ${userId}`;
  return row
    ? {
        id: Number(row.id),
        question: row.question,
        website: row.website,
        status: row.status,
        error: row.error,
        answer: row.answer,
        searchSuggestions: row.search_suggestions,
        eventsStatus: row.events_status,
        eventsLeftOut: row.events_left_out,
      }
    : null;
}

/**
 * Ends the pending events of answered searches finished before `finishedBefore` (their job was lost: the api
 * stopped before it was queued, or the worker gave it up): 'failed', keeping whatever events were stored.
 */
export async function failAbandonedEvents(sql: Sql, finishedBefore: Date): Promise<number> {
  const rows = await sql`
    update searches set events_status = 'failed', events_input = null
    where events_status = 'pending' and finished_at < ${finishedBefore}`;
  return rows.count;
}

/**
 * Records the allowance period a search's own credit came from, when it was taken after the search was recorded
 * (startSearchTakingCredit records it with the row otherwise): the sweep of lost searches gives it back.
 */
export async function recordSearchCreditEpoch(sql: Sql, id: number, epoch: number): Promise<void> {
  await sql`update searches set credit_epoch = ${epoch} where id = ${id}`;
}

/**
 * Ends searches left 'running' since before `startedBefore` by a process that stopped mid-search (their own
 * process would have finished them long before): failed, with a sentence, and each one's own credit given back
 * into the period it came from (`credit_epoch`; a period that has ended is left as it is), in the one statement
 * that marks them failed. Only rows still running change, so sweeps at once, or a sweep and the search's own
 * failure, give a credit back once. Returns how many ended.
 */
export async function failAbandonedSearches(sql: Sql, startedBefore: Date, error: string): Promise<number> {
  const [row] = await sql<{ ended: number }[]>`
    with ended as (
      update searches set status = 'failed', error = ${error}, finished_at = now()
      where status = 'running' and started_at < ${startedBefore}
      returning user_id, credit_epoch
    ), owed as (
      select user_id, credit_epoch, count(*)::int as credits from ended where credit_epoch is not null
      group by user_id, credit_epoch
    ), given_back as (
      update accounts a set searches_used = greatest(a.searches_used - owed.credits, 0), updated_at = now()
      from owed where a.user_id = owed.user_id and a.usage_epoch = owed.credit_epoch
    )
    select count(*)::int as ended from ended`;
  return row!.ended;
}
