import type { Hono } from 'hono';
import { type ChannelPosts, GONE, headersOf, isObject, jsonOf, RATE_LIMITED } from './chat-received';

/**
 * Slack's incoming webhooks at /slack/services/T…/B…/<secret> (hooks.slack.com/services/… in production):
 * a JSON body with `text` and/or Block Kit `blocks`, checked against Slack's documented limits; answers `ok`,
 * or Slack's own plain-text errors: 400 invalid_payload / invalid_blocks, 404 channel_not_found and no_service
 * (`…/gone`), 429 rate_limited with Retry-After (`…/rate-limited`, once).
 */
const MAX_BLOCKS = 50;
const HEADER_MAX = 150;
const SECTION_TEXT_MAX = 3000;
const TEXT_MAX = 40000;
const CONTEXT_ELEMENTS_MAX = 10;

const isText = (v: unknown, types: string[], max: number) =>
  isObject(v) && types.includes(v.type as string) && typeof v.text === 'string' && v.text.length > 0 && v.text.length <= max;

/** Why Slack would refuse the body, or null when it is a message Slack shows. */
export function slackRefusal(body: unknown): 'invalid_payload' | 'invalid_blocks' | 'no_text' | null {
  if (!isObject(body)) return 'invalid_payload';
  if (body.text !== undefined && (typeof body.text !== 'string' || body.text.length > TEXT_MAX)) return 'invalid_payload';
  if (body.blocks === undefined) return typeof body.text === 'string' && body.text.length > 0 ? null : 'no_text';
  if (!Array.isArray(body.blocks) || body.blocks.length === 0 || body.blocks.length > MAX_BLOCKS) return 'invalid_blocks';
  for (const b of body.blocks) {
    if (!isObject(b)) return 'invalid_blocks';
    const ok =
      b.type === 'header'
        ? isText(b.text, ['plain_text'], HEADER_MAX)
        : b.type === 'section'
          ? isText(b.text, ['mrkdwn', 'plain_text'], SECTION_TEXT_MAX)
          : b.type === 'context'
            ? Array.isArray(b.elements) &&
              b.elements.length > 0 &&
              b.elements.length <= CONTEXT_ELEMENTS_MAX &&
              b.elements.every((e) => isText(e, ['mrkdwn', 'plain_text'], SECTION_TEXT_MAX))
            : b.type === 'divider';
    if (!ok) return 'invalid_blocks';
  }
  return null;
}

export function routeSlack(app: Hono, posts: ChannelPosts): void {
  app.post('/slack/services/:team/:bot/:secret', async (c) => {
    const raw = await c.req.text();
    const body = jsonOf(raw);
    const secret = c.req.param('secret');
    const answer = (status: number, reply: string, headers: Record<string, string> = {}) => {
      posts.add({ service: 'slack', path: c.req.path, headers: headersOf(c.req.raw.headers), body: body ?? raw, status, reply });
      return c.text(reply, status as 200, headers);
    };
    if (secret === GONE) return answer(404, 'no_service');
    if (secret === RATE_LIMITED && posts.limitOnce(c.req.path)) return answer(429, 'rate_limited', { 'retry-after': '1' });
    if (!(c.req.header('content-type') ?? '').startsWith('application/json')) return answer(400, 'invalid_payload');
    const refusal = slackRefusal(body);
    if (refusal) return answer(400, refusal);
    return answer(200, 'ok');
  });
}
