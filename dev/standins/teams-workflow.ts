import type { Hono } from 'hono';
import { type ChannelPosts, GONE, headersOf, isObject, jsonOf, RATE_LIMITED } from './chat-received';

/**
 * A Teams Workflows webhook ("Post to a channel when a webhook request is received") at
 * /teams/workflows/<id>/triggers/manual/paths/invoke: a message whose attachments are Adaptive Cards, at most
 * 28 KB; answers 202 Accepted, or the JSON errors `{error: {code, message}}`: 400 for a message the flow cannot
 * post, 401 DirectApiAuthorizationRequired for an address without its signature (`sig=` in the query), 404
 * WorkflowNotFound (`…/gone`), 429 with Retry-After (`…/rate-limited`, once).
 */
const MAX_BYTES = 28 * 1024;
const CARD = 'application/vnd.microsoft.card.adaptive';
const ELEMENTS = new Set(['TextBlock', 'Container', 'ColumnSet', 'Column', 'FactSet', 'Image', 'ActionSet', 'RichTextBlock']);

function elementsValid(items: unknown): boolean {
  if (!Array.isArray(items)) return false;
  return items.every((el) => {
    if (!isObject(el) || !ELEMENTS.has(el.type as string)) return false;
    if (el.type === 'TextBlock') return typeof el.text === 'string';
    if (el.type === 'Container') return elementsValid(el.items);
    return true;
  });
}

/** Why the flow would not post the message, or null. */
export function teamsRefusal(raw: string, body: unknown): string | null {
  if (Buffer.byteLength(raw, 'utf8') > MAX_BYTES) return 'The message is larger than 28 KB, which Teams does not post.';
  if (!isObject(body) || body.type !== 'message') return 'The body must be a message: {"type": "message", "attachments": [...]}.';
  if (!Array.isArray(body.attachments) || body.attachments.length === 0) return 'The message has no attachments.';
  for (const a of body.attachments) {
    if (!isObject(a) || a.contentType !== CARD) return `Each attachment must be an Adaptive Card (contentType ${CARD}).`;
    const card = a.content;
    if (!isObject(card) || card.type !== 'AdaptiveCard' || typeof card.version !== 'string')
      return 'The attachment content is not an AdaptiveCard with a version.';
    if (!elementsValid(card.body)) return 'The card body holds an element Teams does not know.';
    if (
      card.actions !== undefined &&
      (!Array.isArray(card.actions) || !card.actions.every((x) => isObject(x) && typeof x.type === 'string'))
    ) {
      return 'The card actions are not valid.';
    }
  }
  return null;
}

export function routeTeams(app: Hono, posts: ChannelPosts): void {
  app.post('/teams/workflows/:id/triggers/manual/paths/invoke', async (c) => {
    const raw = await c.req.text();
    const body = jsonOf(raw);
    const id = c.req.param('id');
    const answer = (status: number, error: { code: string; message: string } | null, headers: Record<string, string> = {}) => {
      const reply = error ? JSON.stringify({ error }) : '';
      posts.add({ service: 'teams', path: c.req.path, headers: headersOf(c.req.raw.headers), body: body ?? raw, status, reply });
      return error ? c.body(reply, status as 400, { 'content-type': 'application/json', ...headers }) : c.body(null, 202);
    };
    if (!c.req.query('sig')) {
      return answer(401, {
        code: 'DirectApiAuthorizationRequired',
        message: 'The request must be authenticated only by Shared Access scheme.',
      });
    }
    if (id === GONE) return answer(404, { code: 'WorkflowNotFound', message: 'The workflow could not be found.' });
    if (id === RATE_LIMITED && posts.limitOnce(c.req.path)) {
      return answer(
        429,
        { code: 'WorkflowTriggerIsThrottled', message: 'The workflow is being throttled. Retry later.' },
        { 'retry-after': '1' },
      );
    }
    const refusal = teamsRefusal(raw, body);
    if (refusal) return answer(400, { code: 'InvalidRequestContent', message: refusal });
    return answer(202, null);
  });
}
