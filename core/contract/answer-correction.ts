import * as z from 'zod/mini';

/**
 * One date in an answer's text that the check of its events contradicts (docs/decisions/checked-events.md): where
 * it stands in the answer as Gemini wrote it, what it says there, and the date the event's page gives. `start`
 * and `end` are offsets in `answer` counted in UTF-16 code units (JavaScript string indices), end exclusive.
 */
export const answerCorrectionSchema = z.object({
  start: z.number(),
  end: z.number(),
  /** The answer's text at `start`…`end`: the date (and its time, when written beside it) that is wrong. */
  said: z.string(),
  /** The checked date in the one date style, in the event's own clock: 'Tue 15 Dec 2026, 19:00'. */
  checked: z.string(),
  /** The checked start (ISO 8601, as the event's `starts_at`). */
  starts_at: z.string(),
  /** The corrected event's `key` among the search's events. */
  event_key: z.string(),
});
export type AnswerCorrection = z.output<typeof answerCorrectionSchema>;
