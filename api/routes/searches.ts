import { type Context, Hono } from 'hono';
import { createFactory } from 'hono/factory';
import type { SearchReply } from '../../core/contract/event-replies';
import type { SearchHistoryReply } from '../../core/contract/search-history';
import { answerCorrections, markedAnswer } from '../../core/events/answer-corrections';
import { sanitizeSearchSuggestions } from '../../core/gemini/search-suggestions';
import { STORED_EVENTS_PER_SEARCH } from '../../core/search/stored-events';
import { searchEvents, searchEventsForCorrections } from '../../db/events';
import { getUserSearch, searchHistory } from '../../db/searches';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser } from '../middleware/session';
import { routeId } from '../route-id';

// The suggestions page runs no script and loads nothing but images; it may be framed by our own page only, and
// its links open outside the frame (Google's chips lead to a Google Search results page).
const SUGGESTIONS_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src https: data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation',
].join('; ');

const factory = createFactory<AppEnv>();

async function ownSearch(deps: AppDeps, c: Context<AppEnv>) {
  const user = requireUser(c);
  const id = routeId(c.req.param('id'));
  const search = id === null ? null : await getUserSearch(deps.sql, user.id, id);
  if (!search) throw new ApiError(404, 'There is no such search among yours.');
  return search;
}

/**
 * The user's own search with its answer and events (GET /api/searches/:id, GET /v1/searches/:id); its
 * suggestions page is beside it, under the same prefix.
 */
export const getSearchHandlers = (deps: AppDeps) =>
  factory.createHandlers(async (c) => {
    const page = eventsPage(c.req.query('events_after'), c.req.query('events_limit'));
    const { searchSuggestions, eventsStatus, eventsLeftOut, ...search } = await ownSearch(deps, c);
    const [events, forCorrections] = await Promise.all([
      searchEvents(deps.sql, search.id, page),
      search.answer === null ? [] : searchEventsForCorrections(deps.sql, search.id),
    ]);
    // The stored answer stays as Gemini wrote it; its contradicted dates are marked from the checked events.
    const corrections = search.answer === null ? [] : answerCorrections(search.answer, forCorrections);
    const reply: SearchReply = {
      ...search,
      answer_corrections: corrections,
      marked_answer: search.answer === null ? null : markedAnswer(search.answer, corrections),
      events: events.shown,
      hidden_events: events.hidden,
      events_status: eventsStatus,
      events_left_out: eventsLeftOut,
      events_cursor: events.cursor === null ? null : String(events.cursor),
      events_has_more: events.hasMore,
      search_suggestions_url: searchSuggestions ? `${c.req.path}/suggestions` : null,
    };
    return c.json(reply);
  });

/** A search's events a page holds when left unsaid: all it keeps, so a search read without paging is whole. */
export const SEARCH_EVENTS_PAGE = STORED_EVENTS_PER_SEARCH;
const BAD_EVENTS_AFTER =
  'events_after must be the events_cursor of an earlier reply for this search (a whole number), or left out to start with its first event.';
const BAD_EVENTS_LIMIT = `events_limit must be a whole number from 1 to ${SEARCH_EVENTS_PAGE}, or left out for all of them.`;

/** `?events_after=<cursor>&events_limit=<n>` of GET /api/searches/:id, checked. */
function eventsPage(after: string | undefined, limit: string | undefined): { after: number | null; limit: number } {
  if (after !== undefined && !/^\d{1,9}$/.test(after)) throw new ApiError(400, BAD_EVENTS_AFTER);
  if (limit !== undefined && (!/^\d{1,4}$/.test(limit) || Number(limit) < 1 || Number(limit) > SEARCH_EVENTS_PAGE))
    throw new ApiError(400, BAD_EVENTS_LIMIT);
  return { after: after === undefined ? null : Number(after), limit: limit === undefined ? SEARCH_EVENTS_PAGE : Number(limit) };
}

const HISTORY_PAGE = 20;
const HISTORY_MOST = 50;
const BAD_BEFORE =
  'before must be the cursor of an earlier reply of this call (a whole number), or left out to start with the newest search.';
const BAD_LIMIT = `limit must be a whole number from 1 to ${HISTORY_MOST}, or left out for ${HISTORY_PAGE}.`;

/**
 * The user's own answered searches, newest first (GET /api/searches, GET /v1/searches): `?before=<cursor>` for
 * the page after an earlier reply's, `?limit=` up to 50 a page.
 */
export const searchHistoryHandlers = (deps: AppDeps) =>
  factory.createHandlers(async (c) => {
    const user = requireUser(c);
    const before = c.req.query('before');
    const limit = c.req.query('limit') ?? String(HISTORY_PAGE);
    if (before !== undefined && !/^[1-9]\d{0,14}$/.test(before)) throw new ApiError(400, BAD_BEFORE);
    if (!/^\d{1,2}$/.test(limit) || Number(limit) < 1 || Number(limit) > HISTORY_MOST) throw new ApiError(400, BAD_LIMIT);
    const found = await searchHistory(deps.sql, user.id, { before: before === undefined ? null : Number(before), limit: Number(limit) });
    const last = found.at(-1);
    const reply: SearchHistoryReply = {
      searches: found.map((s) => ({
        id: s.id,
        question: s.question,
        website: s.website,
        created_at: s.startedAt.toISOString(),
        events_count: s.eventsCount,
        events_status: s.eventsStatus,
      })),
      cursor: last ? String(last.id) : null,
      has_more: found.length === Number(limit),
    };
    return c.json(reply);
  });

/** Google's Search Suggestions of a grounded answer, sanitised, as a page to frame beside the answer. */
export const searchSuggestionsHandlers = (deps: AppDeps) =>
  factory.createHandlers(async (c) => {
    const { searchSuggestions } = await ownSearch(deps, c);
    if (!searchSuggestions) throw new ApiError(404, 'This answer has no search suggestions.');
    c.header('Content-Security-Policy', SUGGESTIONS_POLICY);
    c.header('Cache-Control', 'private, max-age=3600');
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Google Search suggestions</title>` +
        `<style>body{margin:0}</style></head><body>${sanitizeSearchSuggestions(searchSuggestions)}</body></html>`,
    );
  });

/**
 * GET /api/searches (the signed-in user's history) and GET /api/searches/:id (one of their searches with its
 * answer and events), docs/contract.md.
 */
export function searchRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/api/searches', ...searchHistoryHandlers(deps));
  app.get('/api/searches/:id', ...getSearchHandlers(deps));
  app.get('/api/searches/:id/suggestions', ...searchSuggestionsHandlers(deps));
  return app;
}
