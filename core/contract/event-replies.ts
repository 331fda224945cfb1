import * as z from 'zod/mini';
import { answerCorrectionSchema } from './answer-correction';
import { eventSchema } from './event';

/** GET /api/searches/:id: the signed-in user's own search, its answer and its events. */
export const searchReplySchema = z.object({
  id: z.number(),
  question: z.string(),
  website: z.string(),
  /**
   * How the search ended: 'answered', or 'failed' (`error` says why; a failed search is not charged), 'refused',
   * or 'running' while its answer is still being written.
   */
  status: z._default(z.enum(['running', 'answered', 'failed', 'refused']), 'answered'),
  /** Why a failed or refused search ended as it did, as a sentence for a person; null otherwise. */
  error: z._default(z.nullable(z.string()), null),
  /**
   * The answer as Gemini wrote it, unchanged; null when there was none. A failed search keeps the part of the
   * answer that was shown before it failed.
   */
  answer: z.nullable(z.string()),
  /**
   * The dates in `answer` that the check of its events contradicts (shown and hidden events alike), in the
   * answer's order, with their places in it and the checked date; empty until the events are checked.
   */
  answer_corrections: z._default(z.array(answerCorrectionSchema), []),
  /**
   * `answer` with each of `answer_corrections` marked where it stands, the checked date beside it:
   * "2026-12-16, 21:00 [corrected: Tue 15 Dec 2026, 19:00]"; the same as `answer` when nothing is marked.
   */
  marked_answer: z._default(z.nullable(z.string()), null),
  events: z.array(eventSchema),
  /**
   * The events the search's filters left out (its `filters` on POST /api/ask), in the order found: not in
   * `events`, shown on request; empty without filters.
   */
  hidden_events: z.array(eventSchema),
  /**
   * Whether `events` is complete: an ask's events are found a moment after its answer ends, and until they are
   * stored the search says 'pending' (read it again); then 'done', or 'failed' with the events it has.
   */
  events_status: z.enum(['pending', 'done', 'failed']),
  /**
   * How many events the search found beyond the 500 it keeps (a calendar read whole can give thousands): not
   * stored, so in no page of `events`; 0 when it kept them all.
   */
  events_left_out: z._default(z.number(), 0),
  /**
   * Where the next page of events starts: send it back as `events_after` while `events_has_more` is true; null on
   * a page without events. `events` and `hidden_events` are one list paged together (every shown event first).
   */
  events_cursor: z._default(z.nullable(z.string()), null),
  /** Whether events follow this page's (read them with `events_after`). */
  events_has_more: z._default(z.boolean(), false),
  /**
   * Where Google's Search Suggestions for a grounded answer are shown (a page to frame beside the answer, as
   * Google's terms require); null when the answer was not grounded.
   */
  search_suggestions_url: z.nullable(z.string()),
});
export type SearchReply = z.infer<typeof searchReplySchema>;

/** One run of GET /api/timers/:id/runs (newest first); its events new ones first. */
export const timerRunSchema = z.object({
  id: z.number(),
  scheduled_for: z.string(),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
  status: z.enum(['running', 'succeeded', 'failed', 'skipped']),
  /** The run's answer as Gemini wrote it, unchanged; null when there was none. */
  answer: z.nullable(z.string()),
  /** The dates in `answer` the check of the run's events contradicts, as a search's `answer_corrections`. */
  answer_corrections: z._default(z.array(answerCorrectionSchema), []),
  /** `answer` with each of `answer_corrections` marked where it stands, as a search's `marked_answer`. */
  marked_answer: z._default(z.nullable(z.string()), null),
  error: z.nullable(z.string()),
  events: z.array(eventSchema),
  /** The events the timer's filters left out of this run (never delivered, never remembered), shown on request. */
  hidden_events: z.array(eventSchema),
  new_count: z.number(),
  /** Events seen before that moved or were cancelled since (a run with only these is not "0 new"). */
  changed_count: z.number(),
  /** The keys of those changed events among `events`. */
  changed_keys: z.array(z.string()),
  /** Google's Search Suggestions for a grounded run's answer, to show beside it (Google's terms); else null. */
  search_suggestions_url: z.nullable(z.string()),
});
export type TimerRunReply = z.infer<typeof timerRunSchema>;
export const timerRunsReplySchema = z.array(timerRunSchema);

/** POST /api/timers/:id/run → 202. */
export const runNowReplySchema = z.object({ run_id: z.number() });

/** POST /api/timers/:id/feed-token, and the feed fields of GET /api/timers (null while feeds are off). */
export const feedUrlsSchema = z.object({ ical_url: z.nullable(z.string()), atom_url: z.nullable(z.string()) });
export type FeedUrls = z.infer<typeof feedUrlsSchema>;
