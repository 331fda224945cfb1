import type { Event } from '../../core/contract/event';
import type { FeedUrls, TimerRunReply } from '../../core/contract/event-replies';
import { apiFetch } from './http';
import { readReply, replyJson, shapeOf } from './replies';

/** The `{error}` sentence of a JSON error reply, else one naming the status. */
async function failureOf(res: Response): Promise<Error> {
  const { json, schemas } = await replyJson(res);
  return new Error(shapeOf(schemas.errorReplySchema, json)?.error ?? `The server answered ${res.status}. Please try again.`);
}

/**
 * GET /api/searches/:id: what a finished search (the X-Search-Id of its /api/ask reply) adds to its answer: its
 * events, and where Google's Search Suggestions for a grounded answer are shown.
 */
export async function fetchSearchExtras(searchId: string): Promise<{ events: Event[]; suggestionsUrl: string | null }> {
  const res = await apiFetch(`/api/searches/${encodeURIComponent(searchId)}`);
  if (!res.ok) throw await failureOf(res);
  const reply = await readReply(res, (s) => s.searchReplySchema);
  return { events: reply.events, suggestionsUrl: reply.search_suggestions_url };
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
