import { type Event, eventSchema } from '../core/contract/event';
import type { TimerRunReply } from '../core/contract/event-replies';
import type { FoundEvent } from '../core/contract/event';
import type { ClassifiedEvent, SeenEvent } from '../core/events/only-new';
import type { Db, Sql, Tx } from './client';

const asEvent = (json: unknown): Event => eventSchema.parse(json);

/**
 * Stores a search's events; each is new unless the same user found it in an earlier search. Stored once:
 * a second call for the same search changes nothing. One statement (and one more when some events count only
 * if seen before, `onlyIfSeen`): the search waits on it before its reply ends, and a timer run makes one per fire.
 */
export async function recordSearchEvents(
  sql: Sql,
  search: { id: number; userId: number },
  shown: FoundEvent[],
  options: {
    /** The events the search's filters left out: stored after the kept ones, marked hidden (shown on request). */
    hidden?: FoundEvent[];
    /** Events that count only for a user who found them, shown, in an earlier search (a series' cancelled date). */
    onlyIfSeen?: (e: FoundEvent) => boolean;
    /** How many events the search found beyond those it keeps, written on the search. */
    leftOut?: number;
  } = {},
): Promise<Event[]> {
  const onlyIfSeen = options.onlyIfSeen ?? (() => false);
  const hidden = options.hidden ?? [];
  const doubtful = shown.filter(onlyIfSeen).map((e) => e.key);
  const seen = new Set<string>();
  if (doubtful.length > 0) {
    const rows = await sql<{ key: string }[]>`
      select distinct se.key from search_events se join searches s on s.id = se.search_id
      where se.key = any(${doubtful}) and s.user_id = ${search.userId} and se.search_id <> ${search.id} and not se.hidden`;
    for (const r of rows) seen.add(r.key);
  }
  const found = shown.filter((e) => !onlyIfSeen(e) || seen.has(e.key));
  if (found.length + hidden.length === 0) return [];
  const all = [...found, ...hidden];
  const rows = await sql<{ new: boolean }[]>`
    with found as (
      select (f.position - 1)::int as position, f.event ->> 'key' as key, f.event
      from jsonb_array_elements(${sql.json(all as never)}) with ordinality as f (event, position)
    ),
    classified as (
      select position, key, position >= ${found.length} as hidden, event || jsonb_build_object('new', not exists (
        select 1 from search_events se join searches s on s.id = se.search_id
        where se.key = found.key and s.user_id = ${search.userId} and se.search_id <> ${search.id} and not se.hidden)) as event
      from found
    ),
    stored as (
      insert into search_events (search_id, position, key, event, hidden)
      select ${search.id}, position, key, event, hidden from classified
      on conflict do nothing
    ),
    counted as (
      update searches set events_left_out = ${options.leftOut ?? 0} where id = ${search.id} and ${(options.leftOut ?? 0) > 0}
    )
    select (event ->> 'new')::boolean as new from classified order by position`;
  return found.map((e, i) => ({ ...e, new: rows[i]!.new }));
}

export interface SearchEventsPage {
  /** Those its filters kept, in order. */
  shown: Event[];
  /** Those its filters left out, in order (after every shown one). */
  hidden: Event[];
  /** The position of the page's last event, for the next page; null for an empty page. */
  cursor: number | null;
  hasMore: boolean;
}

/**
 * A page of a search's events in the order stored (those its filters kept, then those they left out): at most
 * `limit` after the event at position `after` (from the first when null).
 */
export async function searchEvents(sql: Db, searchId: number, page: { after: number | null; limit: number }): Promise<SearchEventsPage> {
  const rows = await sql<{ position: number; event: unknown; hidden: boolean }[]>`
    select position, event, hidden from search_events
    where search_id = ${searchId} and position > ${page.after ?? -1}
    order by position limit ${page.limit + 1}`;
  const taken = rows.slice(0, page.limit);
  return {
    shown: taken.filter((r) => !r.hidden).map((r) => asEvent(r.event)),
    hidden: taken.filter((r) => r.hidden).map((r) => asEvent(r.event)),
    cursor: taken.at(-1)?.position ?? null,
    hasMore: rows.length > page.limit,
  };
}

/**
 * What marks a search's answer (core/events/answer-corrections.ts): all its events in order, shown and hidden,
 * when a page corrected any of them (each event's title bounds the part of the answer about it); else none.
 */
export async function searchEventsForCorrections(sql: Db, searchId: number): Promise<Event[]> {
  const rows = await sql<{ event: unknown }[]>`
    select event from search_events
    where search_id = ${searchId} and exists (
      select 1 from search_events c where c.search_id = ${searchId} and c.event -> 'verification' ->> 'status' = 'corrected')
    order by position`;
  return rows.map((r) => asEvent(r.event));
}

export interface RunEvent {
  event: Event;
  changed: boolean;
}

/**
 * Records a timer run's events against the timer's memory, under a per-timer lock so two runs of one timer
 * never both call the same event new: each event is new when the timer never saw it, changed when it moved
 * or was cancelled. Idempotent per run: a redelivered job gets the events recorded the first time.
 */
export async function recordRunEvents(
  sql: Sql,
  run: { id: number; timerId: number },
  classify: (seen: Map<string, SeenEvent>) => ClassifiedEvent[],
): Promise<RunEvent[]> {
  return sql.begin(async (tx: Tx) => {
    // Sent together and run in this order, so each read's snapshot is taken once the lock is held. A query
    // starts when it is first awaited, so each is started here explicitly, in order.
    const locked = tx`select pg_advisory_xact_lock(hashtext('timer-events'), ${run.timerId}::int)`.execute();
    const recorded = runEventRows(tx, run.id).execute();
    const remembered = tx<{ key: string; event: FoundEvent; sequence: number }[]>`
      select key, event, sequence from timer_events where timer_id = ${run.timerId}`.execute();
    const [, recordedRows, seenRows] = await Promise.all([locked, recorded, remembered]);
    const existing = toRunEvents(recordedRows);
    if (existing.length > 0) return existing;
    const seen = new Map<string, SeenEvent>(seenRows.map((r) => [r.key, { key: r.key, event: r.event, sequence: r.sequence }]));
    // One event per key in a run, even if two found events ended on the same key (a moved one took an old key).
    const classified = classify(seen).filter((c, i, all) => all.findIndex((o) => o.event.key === c.event.key) === i);
    if (classified.length === 0) return [];
    // One statement for the run's events and the timer's memory. A bumped event's sequence went up by one
    // (core/events/only-new.ts), which is how the upsert tells that its calendar copy changed.
    await tx`
      with run_events as (
        insert into timer_run_events ${tx(
          classified.map((c, position) => ({
            run_id: run.id,
            position,
            key: c.event.key,
            event: tx.json(c.event as never),
            is_new: c.event.new,
            changed: c.changed,
          })),
        )})
      insert into timer_events ${tx(
        classified.map((c) => ({
          timer_id: run.timerId,
          key: c.remember.event.key,
          event: tx.json(c.remember.event as never),
          sequence: c.remember.sequence,
          first_run_id: run.id,
        })),
      )}
      on conflict (timer_id, key) do update set
        event = excluded.event, sequence = excluded.sequence, last_seen_at = now(),
        changed_at = case when excluded.sequence > timer_events.sequence then now() else timer_events.changed_at end`;
    return classified.map((c) => ({ event: c.event, changed: c.changed }));
  });
}

/** A run's events, new ones first, then in the order found. */
export async function runEvents(sql: Db, runId: number): Promise<RunEvent[]> {
  return toRunEvents(await runEventRows(sql, runId));
}

type RunEventRow = { event: unknown; changed: boolean };

function runEventRows(sql: Db, runId: number) {
  return sql<RunEventRow[]>`select event, changed from timer_run_events where run_id = ${runId} order by is_new desc, position`;
}

function toRunEvents(rows: readonly RunEventRow[]): RunEvent[] {
  return rows.map((r) => ({ event: asEvent(r.event), changed: r.changed }));
}

/** The events of many runs at once (the run history), keyed by run id. */
export async function eventsOfRuns(sql: Db, runIds: number[]): Promise<Map<number, RunEvent[]>> {
  const byRun = new Map<number, RunEvent[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return byRun;
  const rows = await sql<{ run_id: string; event: unknown; changed: boolean }[]>`
    select run_id, event, changed from timer_run_events where run_id = any(${runIds}) order by run_id, is_new desc, position`;
  for (const r of rows) byRun.get(Number(r.run_id))?.push({ event: asEvent(r.event), changed: r.changed });
  return byRun;
}

/** Each run's events, kept and left out alike (what its answer's corrections are read from). */
export async function allEventsOfRuns(sql: Db, runIds: number[]): Promise<Map<number, Event[]>> {
  const [kept, hidden] = await Promise.all([eventsOfRuns(sql, runIds), hiddenOfRuns(sql, runIds)]);
  return new Map(runIds.map((id) => [id, [...(kept.get(id) ?? []).map((e) => e.event), ...(hidden.get(id) ?? [])]]));
}

/** The events each run's filters left out (its search's hidden events, docs/decisions/timers-in-words-and-filters.md), in the order found. */
async function hiddenOfRuns(sql: Db, runIds: number[]): Promise<Map<number, Event[]>> {
  const byRun = new Map<number, Event[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return byRun;
  const rows = await sql<{ run_id: string; event: unknown }[]>`
    select s.timer_run_id as run_id, se.event from searches s join search_events se on se.search_id = s.id
    where s.timer_run_id = any(${runIds}) and se.hidden order by s.timer_run_id, se.position`;
  for (const r of rows) byRun.get(Number(r.run_id))?.push(asEvent(r.event));
  return byRun;
}

export interface RunWithNew {
  runId: number;
  finishedAt: Date;
  events: Event[];
}

/**
 * The latest runs of a timer that found new or changed events, newest first, with those events (the Atom feed);
 * a changed event has `new` false.
 */
export async function runsWithNewEvents(sql: Db, timerId: number, limit = 50): Promise<RunWithNew[]> {
  const runs = await sql<{ id: string; finished_at: Date }[]>`
    select r.id, coalesce(r.finished_at, r.started_at) as finished_at from timer_runs r
    where r.timer_id = ${timerId} and r.status = 'succeeded'
      and exists (select 1 from timer_run_events e where e.run_id = r.id and (e.is_new or e.changed))
    order by r.scheduled_for desc limit ${limit}`;
  const ids = runs.map((r) => Number(r.id));
  const events = await eventsOfRuns(sql, ids);
  return runs.map((r) => ({
    runId: Number(r.id),
    finishedAt: r.finished_at,
    events: (events.get(Number(r.id)) ?? []).filter((e) => e.event.new || e.changed).map((e) => e.event),
  }));
}

/**
 * A run as the runs reply has it, with the id of its search when that has Google's Search Suggestions; its
 * answer's corrections are read from its events by the caller (core/events/answer-corrections.ts).
 */
export type RunHistoryItem = Omit<TimerRunReply, 'search_suggestions_url' | 'answer_corrections' | 'marked_answer'> & {
  suggestions_search_id: number | null;
};

/** The user's own timer's runs, newest first, each with its events (new first); null when not their timer. */
export async function timerRunHistory(sql: Db, userId: number, timerId: number, limit = 20): Promise<RunHistoryItem[] | null> {
  const [timer] = await sql`select 1 from timers where id = ${timerId} and user_id = ${userId} and deleted_at is null`;
  if (!timer) return null;
  const runs = await sql<
    {
      id: string;
      scheduled_for: Date;
      started_at: Date;
      finished_at: Date | null;
      status: TimerRunReply['status'];
      answer: string | null;
      error: string | null;
      suggestions_search_id: string | null;
    }[]
  >`select r.id, r.scheduled_for, r.started_at, r.finished_at, r.status, r.answer, r.error,
      (select s.id from searches s where s.timer_run_id = r.id and s.search_suggestions is not null
       order by s.id desc limit 1) as suggestions_search_id
    from timer_runs r
    where r.timer_id = ${timerId} order by r.scheduled_for desc, r.id desc limit ${limit}`;
  const runIds = runs.map((r) => Number(r.id));
  const [events, hidden] = await Promise.all([eventsOfRuns(sql, runIds), hiddenOfRuns(sql, runIds)]);
  return runs.map((r) => {
    const found = events.get(Number(r.id)) ?? [];
    const list = found.map((e) => e.event);
    const changed = found.filter((e) => e.changed && !e.event.new).map((e) => e.event.key);
    return {
      id: Number(r.id),
      scheduled_for: r.scheduled_for.toISOString(),
      started_at: r.started_at.toISOString(),
      finished_at: r.finished_at?.toISOString() ?? null,
      status: r.status,
      answer: r.answer,
      error: r.error,
      events: list,
      hidden_events: hidden.get(Number(r.id)) ?? [],
      new_count: list.filter((e) => e.new).length,
      changed_count: changed.length,
      changed_keys: changed,
      suggestions_search_id: r.suggestions_search_id === null ? null : Number(r.suggestions_search_id),
    };
  });
}

/** A run's events when the run is of the user's own active timer; null otherwise. */
export async function ownRunEvents(sql: Db, userId: number, timerId: number, runId: number): Promise<Event[] | null> {
  const [own] = await sql`
    select 1 from timer_runs r join timers t on t.id = r.timer_id
    where r.id = ${runId} and t.id = ${timerId} and t.user_id = ${userId} and t.deleted_at is null`;
  if (!own) return null;
  return (await runEvents(sql, runId)).map((r) => r.event);
}
