import type { AnswerCorrection } from '../../core/contract/answer-correction';
import type { Event } from '../../core/contract/event';
import type { FeedUrls, SearchReply, TimerRunReply } from '../../core/contract/event-replies';
import type { SearchHistoryReply } from '../../core/contract/search-history';
import { apiFetch } from './http';
import { readReply, replyJson, shapeOf } from './replies';

/** The `{error}` sentence of a JSON error reply, else one naming the status. */
async function failureOf(res: Response): Promise<Error> {
  const { json, schemas } = await replyJson(res);
  return new Error(shapeOf(schemas.errorReplySchema, json)?.error ?? `The server answered ${res.status}. Please try again.`);
}

export interface SearchExtras {
  events: Event[];
  /** The events the search's filters left out, shown on request. */
  hiddenEvents: Event[];
  /** The dates in the answer its checked events contradict, where they stand in it. */
  answerCorrections: AnswerCorrection[];
  /** 'pending' while the events are still being found (a moment after the answer ends). */
  eventsStatus: SearchReply['events_status'];
  /** How many events the search found beyond those it keeps (in neither list); 0 when it kept them all. */
  eventsLeftOut: number;
  suggestionsUrl: string | null;
}

/**
 * GET /api/searches/:id: what a finished search (the X-Search-Id of its /api/ask reply) adds to its answer: its
 * events, and where Google's Search Suggestions for a grounded answer are shown.
 */
export async function fetchSearchExtras(searchId: string): Promise<SearchExtras> {
  const res = await apiFetch(`/api/searches/${encodeURIComponent(searchId)}`);
  if (!res.ok) throw await failureOf(res);
  const reply = await readReply(res, (s) => s.searchReplySchema);
  return {
    events: reply.events,
    hiddenEvents: reply.hidden_events,
    answerCorrections: reply.answer_corrections,
    eventsStatus: reply.events_status,
    eventsLeftOut: reply.events_left_out,
    suggestionsUrl: reply.search_suggestions_url,
  };
}

/** Why a past search cannot be opened by its address: not the user's, or no longer kept. */
export const SEARCH_NOT_FOUND =
  'This search could not be opened: it is not among your searches (it may belong to another account, or it has been deleted). You can ask a new question above.';

/** GET /api/searches/:id whole: a past search opened by its address (`/?search=<id>`) or from the history. */
export async function fetchSearch(searchId: string): Promise<SearchReply> {
  const res = await apiFetch(`/api/searches/${encodeURIComponent(searchId)}`);
  if (res.status === 404) throw new Error(SEARCH_NOT_FOUND);
  if (!res.ok) throw await failureOf(res);
  return readReply(res, (s) => s.searchReplySchema);
}

/** GET /api/searches: a page of the user's own searches, newest first; `before` an earlier page's cursor. */
export async function fetchSearchHistory(before: string | null, limit: number): Promise<SearchHistoryReply> {
  const query = new URLSearchParams({ limit: String(limit), ...(before ? { before } : {}) });
  const res = await apiFetch(`/api/searches?${query}`);
  if (!res.ok) throw await failureOf(res);
  return readReply(res, (s) => s.searchHistoryReplySchema);
}

// How often a pending search is read again: soon at first (the events usually take a second or two), then less.
const FIRST_WAIT_MS = 400;
const LONGEST_WAIT_MS = 2_000;
/** The worker's extraction has a deadline of two minutes; past this the page stops asking. */
const GIVE_UP_AFTER_MS = 150_000;

/**
 * The search's extras once its events are no longer pending, calling `onRead` with every read (the suggestions
 * are there from the first). Stops when `signal` aborts; after GIVE_UP_AFTER_MS it returns the last read.
 */
export async function waitForSearchExtras(
  searchId: string,
  onRead: (extras: SearchExtras) => void,
  signal: AbortSignal,
): Promise<SearchExtras> {
  const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
  let wait = FIRST_WAIT_MS;
  for (;;) {
    const extras = await fetchSearchExtras(searchId);
    onRead(extras);
    if (extras.eventsStatus !== 'pending' || signal.aborted || Date.now() > giveUpAt) return extras;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
  }
}

/** GET /api/timers/:id/runs, newest first. */
export async function fetchTimerRuns(timerId: number): Promise<TimerRunReply[]> {
  const res = await apiFetch(`/api/timers/${timerId}/runs`);
  if (!res.ok) throw await failureOf(res);
  return readReply(res, (s) => s.timerRunsReplySchema);
}

/** POST /api/timers/:id/run; throws the server's sentence (409: a run is still going). */
export async function runTimerNow(timerId: number): Promise<number> {
  const res = await apiFetch(`/api/timers/${timerId}/run`, { method: 'POST' });
  if (!res.ok) throw await failureOf(res);
  return (await readReply(res, (s) => s.runNowReplySchema)).run_id;
}

/** POST /api/timers/:id/feed-token: new feed URLs; the old ones stop working. */
export async function renewFeedToken(timerId: number): Promise<FeedUrls> {
  const res = await apiFetch(`/api/timers/${timerId}/feed-token`, { method: 'POST' });
  if (!res.ok) throw await failureOf(res);
  return readReply(res, (s) => s.feedUrlsSchema);
}
