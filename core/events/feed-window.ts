/** How far back a feed reaches: events that ended (or started) within this many days, and every later one. */
export const FEED_PAST_DAYS = 30;
/** The most events one feed carries (the nearest to the window's start first). */
export const FEED_MAX_EVENTS = 300;

/**
 * The window's start: midnight UTC FEED_PAST_DAYS ago. Whole days, so the window moves once a day and a poll's
 * ETag (which names the day) stays the same between a timer's changes within a day.
 */
export function feedWindowStart(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - FEED_PAST_DAYS));
}
