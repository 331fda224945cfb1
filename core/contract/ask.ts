import * as z from 'zod/mini';
import { timerFiltersSchema } from './timer-filters';
import { checkedLater } from './wire-type';

export const ASK_EMPTY_QUESTION = 'Please enter a question, for example: Find AI conferences in Berlin next month.';
const QUESTION = z.string().check(z.minLength(1), z.describe('The question, in words.'));

export const WEBSITE_NOT_TEXT = 'The website must be text: a web address or nothing.';

/**
 * POST /api/ask {ques, web, timezone?}. The shape only: the page checks nothing (spec section 5), so the
 * server's rules (trimmed, bounded, a real web address) follow in core/question-input.ts.
 */
export const askRequestSchema = z.object(
  {
    // Documented as the required string it must be; a missing or empty one is answered with ASK_EMPTY_QUESTION.
    ques: checkedLater(z.optional(z.nullable(z.string({ error: ASK_EMPTY_QUESTION }))), QUESTION, { required: true }),
    web: z.optional(z.nullable(z.string({ error: WEBSITE_NOT_TEXT }))),
    /** The browser's IANA time zone, so dates in the answer are the user's. */
    timezone: z.optional(z.string({ error: 'The time zone must be an IANA name such as Europe/Berlin.' })),
    /** Optional: which events to keep, as a timer's (core/contract/timer-filters.ts); asked for in the prompt too. */
    filters: checkedLater(z.optional(z.unknown()), z.nullable(timerFiltersSchema)),
  },
  { error: 'The request must be a JSON object with ques and web.' },
);
export type AskRequest = z.infer<typeof askRequestSchema>;
