import * as z from 'zod/mini';
import { searchReplySchema } from './event-replies';

/** One of the user's past searches as a history line: what was asked, where, when, and what it found. */
export const listedSearchSchema = z.object({
  id: z.number(),
  question: z.string(),
  website: z.string(),
  /** When the search was asked (ISO 8601, UTC). */
  created_at: z.string(),
  /** How many events GET /api/searches/:id has for it (so far, while `events_status` is 'pending'). */
  events_count: z.number(),
  events_status: searchReplySchema.shape.events_status,
});
export type ListedSearch = z.infer<typeof listedSearchSchema>;

/**
 * GET /api/searches and GET /v1/searches: the user's own answered searches, newest first, a page at a time.
 * `cursor` is the last search's; send it back as `before` for the next (older) page. `has_more` says the page
 * was full; `cursor` is null when the page is empty.
 */
export const searchHistoryReplySchema = z.object({
  searches: z.array(listedSearchSchema),
  cursor: z.nullable(z.string()),
  has_more: z.boolean(),
});
export type SearchHistoryReply = z.infer<typeof searchHistoryReplySchema>;
