import type { Context } from 'hono';
import type { SearchReply } from '../core/contract/event-replies';
import { incompleteAnswerNote } from '../core/contract/incomplete-answer';
import { deadline } from '../core/gemini/deadline';
import { observeAskFirstByte, streamClosed, streamOpened } from '../core/metrics';
import type { Queue } from 'bullmq';
import type { SearchEventsJob } from '../core/jobs';
import type { RedisClient } from '../core/redis/client';
import { type ChargedSearchDeps, type ChargedSearchOutcome, runChargedSearch } from '../core/search/charged-search';
import { queueSearchEvents } from '../core/search/events-job';
import type { Logger } from '../core/logger';
import { finishSearchEvents } from '../db/searches';
import { outOfCreditMarks } from './admission/user-slots';
import type { SearchEnv, searchAdmission } from './admission/search-admission';
import { ANSWER_HEADERS, answerStream } from './answer-stream';
import { ApiError } from './errors';
import type { SearchErrorCode } from '../core/search-error';
import type { ProblemCode } from '../core/contract/problem';
import type { AskInput } from './routes/ask-input';

type Admitted = ReturnType<typeof searchAdmission>;

/** What answering a search over HTTP is handed: the charged search's parts, the credit hint's Redis, the events' queue. */
export interface SearchReplyDeps extends ChargedSearchDeps {
  redis: RedisClient;
  /** Where an answered search's id is queued once its reply has ended (the worker finds its events). */
  searchEventsQueue: Queue<SearchEventsJob>;
}

/** The charged search's input from the ask's body. */
const searchInput = (input: AskInput) => ({ question: input.ques, website: input.web, timezone: input.timezone, filters: input.filters });

/** The HTTP status of each way a search fails: the user's input (400), a busy upstream (429), or ours/theirs (502/503). */
const SEARCH_ERROR_STATUS: Readonly<Record<SearchErrorCode, 400 | 429 | 502 | 503>> = {
  website_refused: 400,
  website_failed: 502,
  upstream_busy: 429,
  upstream_failed: 502,
  upstream_unavailable: 503,
  upstream_timeout: 503,
  upstream_rejected: 502,
  upstream_over_limit: 502,
  blocked: 400,
  empty: 502,
  cut_short: 502,
  reading_busy: 503,
  aborted: 503,
};

/** The stable code /v1's problem details give each way a search fails (core/contract/problem.ts). */
const SEARCH_PROBLEM: Readonly<Record<SearchErrorCode, ProblemCode>> = {
  website_refused: 'website_refused',
  website_failed: 'upstream_failed',
  upstream_busy: 'gemini_busy',
  upstream_failed: 'gemini_failed',
  upstream_unavailable: 'gemini_unavailable',
  upstream_timeout: 'gemini_unavailable',
  upstream_rejected: 'gemini_failed',
  upstream_over_limit: 'gemini_failed',
  reading_busy: 'unavailable',
  blocked: 'blocked',
  empty: 'gemini_failed',
  cut_short: 'gemini_failed',
  aborted: 'unavailable',
};

/** The error reply of a search that ended before any answer text. */
export function refusal(outcome: ChargedSearchOutcome): ApiError {
  if (outcome.kind === 'failed') {
    const { code, message, retryAfterSeconds } = outcome.error;
    // A busy Gemini's own wait (its 429's retryDelay) is passed on, so a client retries when it may succeed.
    const headers: Record<string, string> = retryAfterSeconds === null ? {} : { 'retry-after': String(retryAfterSeconds) };
    return new ApiError(SEARCH_ERROR_STATUS[code], message, { headers, code: SEARCH_PROBLEM[code] });
  }
  if (outcome.kind === 'no_credits') return new ApiError(402, outcome.message);
  return new ApiError(500, 'Something went wrong on our side. Please try again in a moment.');
}

/**
 * Queues the answered search's events by its id, to be found off the reply path (docs/decisions/ask.md). When they
 * cannot be queued (Redis away) the search says so: its events end 'failed' rather than 'pending' for ever.
 */
async function queueEvents(deps: SearchReplyDeps, log: Logger, outcome: ChargedSearchOutcome): Promise<void> {
  if (outcome.kind !== 'answered' || outcome.unrecorded) return;
  try {
    await queueSearchEvents(deps.searchEventsQueue, outcome.searchId);
  } catch (err) {
    log.error({ err, searchId: outcome.searchId }, 'could not queue the events of a search');
    await finishSearchEvents(deps.sql, outcome.searchId, { status: 'failed', calls: [] }).catch(() => {});
  }
}

/**
 * Keeps the credit hint (admission/user-slots.ts) true to what the search found: a refusal for want of
 * searches marks the user; an answer to a marked user clears the mark. Off the reply's way; a failure is logged.
 */
function noteCredit(
  deps: SearchReplyDeps,
  c: Context<SearchEnv>,
  creditLikely: boolean,
  userId: number,
  outcome: ChargedSearchOutcome,
): void {
  const marks = outOfCreditMarks(deps.redis, deps.config.queuePrefix);
  const write =
    outcome.kind === 'no_credits' ? marks.mark(userId) : outcome.kind === 'answered' && !creditLikely ? marks.clear(userId) : null;
  write?.catch((err) => c.get('log').warn({ err }, 'could not note the credit hint'));
}

/**
 * A whole search's failure after its answer began: the failure's own status and code, with the search's id and
 * the part of the answer that came (kept with the failed search, at GET /v1/searches/{id}). It is not charged.
 */
function failedPart(failure: ApiError, searchId: number, partialAnswer: string): ApiError {
  return new ApiError(failure.status, failure.message, {
    ...failure.options,
    extensions: { search_id: searchId, partial_answer: partialAnswer },
  });
}

/**
 * The model's deadline for a request a person or agent waits on: given up when the request goes away, or when the
 * model sends nothing for `answerIdleMs` (docs/decisions/gemini-and-cost.md). `abort` is the request's own.
 */
function waitedOn(deps: SearchReplyDeps, c: Context<SearchEnv>) {
  const abort = new AbortController();
  c.req.raw.signal.addEventListener('abort', () => abort.abort(), { once: true });
  return { abort, upstream: deadline(abort.signal, deps.config.search.answerIdleMs) };
}

/**
 * One charged search (core/search/charged-search.ts) answered as a stream of plain text, as POST /api/ask
 * answers. The status line waits for the first answer text, so a search that fails before any text is an
 * ordinary error reply; after it, the text streams and a late failure is said at the end of the text. The
 * search's id is in `X-Search-Id`; its events are read from the search once the answer has ended.
 */
export async function streamedSearch(deps: SearchReplyDeps, admitted: Admitted, c: Context<SearchEnv>, input: AskInput): Promise<Response> {
  const log = c.get('log');
  const arrived = performance.now();
  const { user, release, creditLikely } = await admitted.admittedSlot(c);
  const { abort, upstream } = waitedOn(deps, c);
  const answer = answerStream(abort);
  let searchId = 0;
  const outcome = runChargedSearch(deps, {
    userId: user.id,
    input: searchInput(input),
    onText: (text) => {
      upstream.restart();
      answer.write(text);
    },
    onRecorded: (id) => {
      searchId = id;
    },
    signal: upstream.signal,
    answerWhileCharging: creditLikely,
  });
  void outcome.then(upstream.clear, upstream.clear);
  await Promise.race([answer.started, outcome]);
  if (!answer.hasText) {
    const refused = await outcome;
    noteCredit(deps, c, creditLikely, user.id, refused);
    throw refusal(refused);
  }
  observeAskFirstByte((performance.now() - arrived) / 1000);
  streamOpened();
  outcome
    .then(
      (o) => {
        // The slot goes back before the reply ends: an ask the client sends on seeing the end reaches Redis after
        // it (one connection, in order), so a user allowed one search at a time can ask again at once.
        void release();
        if ('unrecorded' in o && o.unrecorded) log.error({ err: o.unrecorded }, 'could not finish search record');
        answer.end(o.kind === 'failed' ? incompleteAnswerNote(o.error.message) : undefined);
        noteCredit(deps, c, creditLikely, user.id, o);
        // Only now, with the reply's last byte out, are its events looked for.
        return queueEvents(deps, log, o);
      },
      (err: unknown) => {
        void release();
        answer.end(void log.error({ err }, 'search failed after its answer began'));
      },
    )
    .finally(streamClosed);
  return answer.reply(c, { ...ANSWER_HEADERS, 'x-search-id': String(searchId) });
}

/**
 * The same charged search answered whole, as JSON: the answer and its events in one reply (POST /v1/search
 * without `Accept: text/plain`). The answer is still asked for as a stream, at the interactive tier, because a
 * person or an agent is waiting for it; an answer cut off after it began is a failure (problem details with the
 * search's id and the partial answer), not charged, as the stream's is not.
 */
export async function wholeSearch(deps: SearchReplyDeps, admitted: Admitted, c: Context<SearchEnv>, input: AskInput): Promise<SearchReply> {
  const { user, release, creditLikely } = await admitted.admittedSlot(c);
  const { upstream } = waitedOn(deps, c);
  let text = '';
  let outcome: Awaited<ReturnType<typeof runChargedSearch>>;
  try {
    outcome = await runChargedSearch(deps, {
      userId: user.id,
      input: searchInput(input),
      onText: (piece) => {
        upstream.restart();
        text += piece;
      },
      signal: upstream.signal,
      answerWhileCharging: creditLikely,
    });
  } finally {
    upstream.clear();
  }
  if ('unrecorded' in outcome && outcome.unrecorded) c.get('log').error({ err: outcome.unrecorded }, 'could not finish search record');
  noteCredit(deps, c, creditLikely, user.id, outcome);
  // A refusal or a failure goes back through the admission's own release (on the error); an answer gives its slot
  // back here. A search that failed after its answer began says so in its status, with the text it had.
  if (outcome.kind === 'failed' && outcome.delivered) throw failedPart(refusal(outcome), outcome.searchId, text);
  if (outcome.kind !== 'answered') throw refusal(outcome);
  await release();
  const base = { id: outcome.searchId, question: input.ques, website: input.web, status: 'answered' as const, error: null };
  // Queued beside the reply's write, not before it: the reply says the events are still to come.
  void queueEvents(deps, c.get('log'), outcome);
  const url = outcome.result.searchSuggestions ? `/v1/searches/${outcome.searchId}/suggestions` : null;
  const answer = outcome.result.answer;
  // Its events are checked after this reply: nothing in the answer is marked yet.
  return {
    ...base,
    answer,
    answer_corrections: [],
    marked_answer: answer,
    events: [],
    hidden_events: [],
    events_status: 'pending',
    events_left_out: 0,
    events_cursor: null,
    events_has_more: false,
    search_suggestions_url: url,
  };
}
