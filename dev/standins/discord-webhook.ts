import type { Hono } from 'hono';
import { type ChannelPosts, GONE, headersOf, isObject, jsonOf, RATE_LIMITED } from './chat-received';

/**
 * Discord's Execute Webhook at /discord/api/webhooks/<id>/<token> (discord.com/api/webhooks/… in production):
 * JSON checked against Discord's documented limits; answers 204, or Discord's JSON errors: 400 code 50035
 * Invalid Form Body (a limit passed), 50006 empty message, 404 code 10015 Unknown Webhook (`…/gone`), 429 with
 * `retry_after` (seconds) and Retry-After (`…/rate-limited`, once).
 */
const L = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  total: 6000,
};

const within = (v: unknown, max: number, min = 0) => v === undefined || (typeof v === 'string' && v.length >= min && v.length <= max);

/** The first documented limit the body passes (as Discord's `errors` would name it), or null. */
export function discordRefusal(body: unknown): { code: number; message: string; field?: string } | null {
  if (!isObject(body)) return { code: 50109, message: 'The request body contains invalid JSON.' };
  const embeds = body.embeds ?? [];
  if (!within(body.content, L.content)) return { code: 50035, message: 'Invalid Form Body', field: 'content' };
  if (!Array.isArray(embeds) || embeds.length > L.embeds) return { code: 50035, message: 'Invalid Form Body', field: 'embeds' };
  if (!body.content && embeds.length === 0) return { code: 50006, message: 'Cannot send an empty message' };
  let total = 0;
  for (const [i, e] of embeds.entries()) {
    if (!isObject(e)) return { code: 50035, message: 'Invalid Form Body', field: `embeds.${i}` };
    const footer = isObject(e.footer) ? e.footer.text : undefined;
    const author = isObject(e.author) ? e.author.name : undefined;
    if (!within(e.title, L.title)) return { code: 50035, message: 'Invalid Form Body', field: `embeds.${i}.title` };
    if (!within(e.description, L.description)) return { code: 50035, message: 'Invalid Form Body', field: `embeds.${i}.description` };
    if (!within(footer, L.footer)) return { code: 50035, message: 'Invalid Form Body', field: `embeds.${i}.footer.text` };
    if (!within(author, L.author)) return { code: 50035, message: 'Invalid Form Body', field: `embeds.${i}.author.name` };
    if (e.url !== undefined && (typeof e.url !== 'string' || !/^https?:\/\//.test(e.url))) {
      return { code: 50035, message: 'Invalid Form Body', field: `embeds.${i}.url` };
    }
    const fields = e.fields ?? [];
    if (!Array.isArray(fields) || fields.length > L.fields)
      return { code: 50035, message: 'Invalid Form Body', field: `embeds.${i}.fields` };
    total += [e.title, e.description, footer, author].reduce<number>((n, t) => n + (typeof t === 'string' ? t.length : 0), 0);
    for (const [j, f] of fields.entries()) {
      if (
        !isObject(f) ||
        !within(f.name, L.fieldName, 1) ||
        !within(f.value, L.fieldValue, 1) ||
        f.name === undefined ||
        f.value === undefined
      ) {
        return { code: 50035, message: 'Invalid Form Body', field: `embeds.${i}.fields.${j}` };
      }
      total += (f.name as string).length + (f.value as string).length;
    }
  }
  if (total > L.total) return { code: 50035, message: 'Invalid Form Body', field: 'embeds' };
  return null;
}

export function routeDiscord(app: Hono, posts: ChannelPosts): void {
  app.post('/discord/api/webhooks/:id/:token', async (c) => {
    const raw = await c.req.text();
    const body = jsonOf(raw);
    const token = c.req.param('token');
    const answer = (status: number, reply: unknown, headers: Record<string, string> = {}) => {
      const text = reply === null ? '' : JSON.stringify(reply);
      posts.add({ service: 'discord', path: c.req.path, headers: headersOf(c.req.raw.headers), body: body ?? raw, status, reply: text });
      if (reply === null) return c.body(null, 204);
      return c.body(text, status as 200, { 'content-type': 'application/json', ...headers });
    };
    if (token === GONE) return answer(404, { message: 'Unknown Webhook', code: 10015 });
    if (token === RATE_LIMITED && posts.limitOnce(c.req.path)) {
      return answer(429, { message: 'You are being rate limited.', retry_after: 1, global: false }, { 'retry-after': '1' });
    }
    const refusal = discordRefusal(body);
    if (refusal) {
      const errors = refusal.field
        ? { [refusal.field]: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be within the limit.' }] } }
        : undefined;
      return answer(400, { message: refusal.message, code: refusal.code, ...(errors ? { errors } : {}) });
    }
    return answer(204, null);
  });
}
