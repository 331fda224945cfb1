import type { Event } from '../../core/contract/event';
import { CHANNEL_LABELS } from '../../core/contract/channel-kinds';
import type { SearchReply, TimerRunReply } from '../../core/contract/event-replies';
import type { TimerEventsReply } from '../../core/contract/timer-events';
import type { ListedTimer } from '../../core/contract/timers';
import { eventWhen } from '../../core/delivery/event-text';
import { eventPlace } from '../../core/events/event-place';
import { safeLink } from '../../core/events/strict-values';
import { formatEventMoment, formatWallClock, withZone, zoneLabel } from '../../core/time/event-date-format';
import { STORED_EVENTS_PER_SEARCH } from '../../core/search/stored-events';
import { knownTimeZone } from '../../core/time/time-zone';

/*
 * A tool's reply in words, the text block beside its JSON for an agent to quote to a person: each event's date
 * in the one style with its zone named (docs/decisions/time.md), written by the same function as a webhook's line.
 * An event reads in its own zone, as its venue's calendar says it (a search or a timer's events carry no
 * reader's zone here); UTC when it has none.
 */

/** '• Title — Sun 12 Jul 2026, 19:00 (Europe/Berlin) — Venue, City — link'. */
function eventLine(e: Event, mark = ''): string {
  const parts = [`${mark}${e.title}`, eventWhen(e, knownTimeZone(e.timezone)), eventPlace(e), safeLink(e.url)];
  return `• ${parts.filter(Boolean).join(' — ')}`;
}

const lines = <E extends Event>(events: E[], mark?: (e: E) => string) => events.map((e) => eventLine(e, mark?.(e)));

/** Each date of the answer its checked events contradict: 'The answer's "2026-12-16, 21:00" is Tue 15 Dec 2026, 19:00 (checked).' */
const correctionLines = (reply: Pick<SearchReply, 'answer_corrections'>) =>
  reply.answer_corrections.map((c) => `The answer's "${c.said}" is ${c.checked} (checked on the event's page).`);

/**
 * find_events, get_search: how many events and each one; while they are still being found, that it is so; then
 * each date of the answer the check corrected (`marked_answer` has them where they stand).
 */
export function searchText(reply: SearchReply): string {
  const head =
    reply.events_status === 'pending'
      ? 'The events are still being found: read them with get_search.'
      : `${reply.events.length} ${reply.events.length === 1 ? 'event' : 'events'} found.`;
  // A failed search keeps the part of its answer written before the failure; it was not charged.
  const failed =
    reply.status === 'failed' ? [`The search failed and was not charged: ${reply.error ?? ''} Its answer is the part written before.`] : [];
  return [...failed, head, ...lines(reply.events), ...pagingLines(reply), ...correctionLines(reply)].join('\n');
}

/** That more events follow this page, and how many the search found beyond those it keeps. */
function pagingLines(reply: SearchReply): string[] {
  const more = reply.events_has_more ? [`More events follow: call get_search again with events_after ${reply.events_cursor ?? ''}.`] : [];
  const n = reply.events_left_out;
  const leftOut =
    n > 0 ? [`${n} more ${n === 1 ? 'event was' : 'events were'} found but not kept: a search keeps ${STORED_EVENTS_PER_SEARCH}.`] : [];
  return [...more, ...leftOut];
}

/** timer_events: each new or changed event, the changed ones marked. */
export function timerEventsText(reply: TimerEventsReply): string {
  if (reply.events.length === 0) return 'No new or changed events since the cursor.';
  return lines(reply.events, (e) => (e.changed ? 'Changed: ' : '')).join('\n');
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A run's outcome: 'succeeded: 3 events, 2 new, 1 changed', 'failed: <its sentence>', 'still running', 'skipped'. */
function runOutcome(run: TimerRunReply): string {
  if (run.status === 'running') return 'still running';
  if (run.status === 'skipped') return `skipped${run.error ? `: ${run.error}` : ''}`;
  if (run.status === 'failed') return `failed: ${run.error ?? 'no reason was recorded'}`;
  const changed = run.changed_count > 0 ? `, ${run.changed_count} changed` : '';
  return `succeeded: ${count(run.events.length, 'event', 'events')}, ${run.new_count} new${changed}`;
}

/** A line ended with a full stop, unless its last words (a run's error sentence) already end one. */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * list_timer_runs: each run, newest first, when it started (UTC, named: a run carries no timer zone) and how it
 * went, then each date of its answer the check corrected (`marked_answer` has them where they stand).
 */
export function timerRunsText(runs: TimerRunReply[]): string {
  if (runs.length === 0) return 'No runs yet.';
  return runs
    .flatMap((run) => [
      sentence(`Run ${run.id}, ${withZone(formatEventMoment(new Date(run.started_at), 'UTC'), 'UTC')}: ${runOutcome(run)}`),
      ...correctionLines(run),
    ])
    .join('\n');
}

/** list_timers, create_timer, edit_timer: each timer, its schedule and its next run in its own zone, named. */
export function timersText(timers: ListedTimer[]): string {
  if (timers.length === 0) return 'No timers.';
  return timers
    .map((t) => {
      const zone = knownTimeZone(t.timezone);
      const every = t.scheduleType === 'weekly' && t.weekday ? `every ${t.weekday}` : 'every day';
      const next = t.paused ? 'paused' : `next run ${withZone(formatEventMoment(new Date(t.nextRunAt), zone), zone)}`;
      const chats = (t.channels ?? []).map((c) => `${CHANNEL_LABELS[c.kind]}${c.stopped ? ' (stopped)' : ''}`);
      const posts = chats.length > 0 ? `; posts to ${chats.join(', ')}` : '';
      return `Timer ${t.id}: "${t.ques}", ${every} at ${formatWallClock(t.time)} (${zoneLabel(zone)}); ${next}${posts}`;
    })
    .join('\n');
}
