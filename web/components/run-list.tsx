import { useEffect, useRef } from 'react';
import type { TimerRunReply } from '../../core/contract/event-replies';
import { formatMoment, formatMomentShort } from '../client/format-time';
import { AnswerText } from './answer-text';
import { EventList } from './event-list';
import { HiddenEvents } from './hidden-events';
import { runCounts, runCountsText } from './run-counts';
import { RunMap } from './run-map';
import { SearchSuggestions } from './search-suggestions';

// A succeeded run says what it found instead ("2 new"); the others say how they went.
const STATUS: Record<Exclude<TimerRunReply['status'], 'succeeded'>, string> = {
  running: 'running…',
  failed: 'failed',
  skipped: 'skipped',
};

export interface RunListProps {
  /** Newest first, as GET /api/timers/:id/runs lists them. */
  runs: TimerRunReply[];
  timerId: number;
  timeZone: string;
  uidDomain?: string;
  /** Open the latest run's answer: the timer was opened from a link (an email's) that promises it. */
  answerOpen?: boolean;
  /** The run a link named (a digest's own run): opened with its answer, brought into view and focused. */
  linkedRun?: number | null;
}

/**
 * One line per run: when, how it went, and what it found ("3 new · 1 changed"). A phone shows the moment short
 * (web/styles/events.css); the whole one is what screen readers read, and the short one's tooltip.
 */
function RunHead({ run, counts }: { run: TimerRunReply; counts: ReturnType<typeof runCounts> }) {
  const moment = formatMoment(run.scheduled_for);
  return (
    <span className="timer-run__head">
      <time dateTime={run.scheduled_for}>
        <span className="timer-run__moment">{moment}</span>
        <span className="timer-run__moment-short" aria-hidden="true" title={moment}>
          {formatMomentShort(run.scheduled_for)}
        </span>
      </time>{' '}
      · {run.status === 'succeeded' ? <strong>{runCountsText(counts)}</strong> : STATUS[run.status]}
    </span>
  );
}

/** What a run found that is news: new and changed events as cards; the events seen before only counted. */
function RunBody({
  run,
  counts,
  timerId,
  timeZone,
  uidDomain,
  withMap,
}: { run: TimerRunReply; counts: ReturnType<typeof runCounts>; withMap: boolean } & Omit<RunListProps, 'runs' | 'answerOpen'>) {
  return (
    <>
      {run.error && run.status !== 'succeeded' ? <p className="timer-run__error">{run.error}</p> : null}
      <EventList
        events={counts.shown}
        timeZone={timeZone}
        title="Events found"
        uidDomain={uidDomain}
        changedKeys={new Set(run.changed_keys)}
        bare
      />
      {counts.unchanged > 0 ? (
        <p className="timer-run__unchanged">
          {counts.unchanged} {counts.unchanged === 1 ? 'event' : 'events'} seen before, unchanged
        </p>
      ) : null}
      <HiddenEvents
        hidden={run.hidden_events}
        answer={run.answer ?? ''}
        timeZone={timeZone}
        uidDomain={uidDomain}
        compact
        answerPlace="run"
      />
      {withMap && run.status === 'succeeded' ? <RunMap timerId={timerId} runId={run.id} events={run.events} /> : null}
    </>
  );
}

/**
 * A timer's runs: the latest open with what it found, each older one a single line that opens on request, so
 * a phone shows many timers' runs without scrolling through events it has seen in every run before.
 */
export function RunList({ runs, timerId, timeZone, uidDomain, answerOpen, linkedRun }: RunListProps) {
  const list = useRef<HTMLOListElement>(null);
  const linked = linkedRun != null && runs.some((r) => r.id === linkedRun) ? linkedRun : null;
  // The linked run's line takes focus once, when the runs first show with it.
  useEffect(() => {
    if (linked === null) return;
    const line = list.current?.querySelector<HTMLElement>(`[data-run-id="${linked}"] summary, [data-run-id="${linked}"] .timer-run__line`);
    line?.scrollIntoView({ block: 'center' });
    line?.focus({ preventScroll: true });
  }, [linked]);
  if (runs.length === 0) return <p className="timer-runs__empty">No runs yet.</p>;
  const now = Date.now();
  // Without a linked run among these, a link opens the latest run's answer.
  const openLatest = answerOpen && (linked === null || linked === runs[0]?.id);
  return (
    <>
      {linkedRun != null && linked === null ? (
        <p className="timer-runs__note">The run the link named is no longer listed here; the latest runs are below.</p>
      ) : null}
      <ol className="timer-runs__list" aria-label="Runs, newest first" ref={list}>
        {runs.map((run, index) => {
          const counts = runCounts(run, now);
          // The map is offered for the latest run only: each map asks the server for its places.
          const body = (
            <RunBody run={run} counts={counts} timerId={timerId} timeZone={timeZone} uidDomain={uidDomain} withMap={index === 0} />
          );
          const answer = run.answer ? (
            <>
              <p className="timer-row__answer timer-run__answer">
                <AnswerText text={run.answer} corrections={run.answer_corrections} />
              </p>
              {run.search_suggestions_url ? <SearchSuggestions url={run.search_suggestions_url} /> : null}
            </>
          ) : null;
          const empty =
            counts.shown.length === 0 &&
            counts.unchanged === 0 &&
            run.hidden_events.length === 0 &&
            !(run.error && run.status !== 'succeeded');
          return (
            <li
              key={run.id}
              data-run-id={run.id}
              className={`timer-run${index === 0 ? ' timer-run--latest' : ''}${run.id === linked ? ' timer-run--linked' : ''}`}
            >
              {index === 0 || empty ? (
                <>
                  {/* The run's line opens its answer; its news is listed below it already. */}
                  {answer ? (
                    <details className="timer-run__answer-toggle" open={(index === 0 && openLatest) || run.id === linked}>
                      <summary className="timer-run__line">
                        <RunHead run={run} counts={counts} />
                        <span className="visually-hidden"> (open for its answer)</span>
                      </summary>
                      {answer}
                    </details>
                  ) : (
                    <p className="timer-run__line" tabIndex={run.id === linked ? -1 : undefined}>
                      <RunHead run={run} counts={counts} />
                    </p>
                  )}
                  {empty ? null : body}
                </>
              ) : (
                <details className="timer-run__older" open={run.id === linked}>
                  <summary>
                    <RunHead run={run} counts={counts} />
                  </summary>
                  {answer}
                  {body}
                </details>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}
