import { type Context, Hono } from 'hono';
import { createFactory } from 'hono/factory';
import type { SearchReply } from '../../core/contract/event-replies';
import { sanitizeSearchSuggestions } from '../../core/gemini/search-suggestions';
import { searchEvents } from '../../db/events';
import { getUserSearch } from '../../db/searches';
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
    const { searchSuggestions, eventsStatus, ...search } = await ownSearch(deps, c);
    const reply: SearchReply = {
      ...search,
      events: await searchEvents(deps.sql, search.id),
      events_status: eventsStatus,
      search_suggestions_url: searchSuggestions ? `${c.req.path}/suggestions` : null,
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

/** GET /api/searches/:id: the signed-in user's own search with its answer and events (docs/contract.md). */
export function searchRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/api/searches/:id', ...getSearchHandlers(deps));
  app.get('/api/searches/:id/suggestions', ...searchSuggestionsHandlers(deps));
  return app;
}
