import type { Hono } from 'hono';
import { type ChannelPosts, GONE, headersOf, RATE_LIMITED } from './chat-received';

/**
 * An ntfy server's publish endpoint at /ntfy/<topic> (ntfy.sh/<topic> in production): the body is the
 * message, at most 4,096 bytes (attachments are off here, as on a server without an attachment cache), with
 * Title, Tags, Click and Authorization headers. Answers 200 with the message as JSON, or ntfy's JSON errors
 * `{code, http, error, link}`: 403 for the topic `protected` without `Bearer tk_standin`, 413 too large, 404
 * (`gone`), 429 (`rate-limited`, once).
 */
const MAX_BYTES = 4096;
export const NTFY_STANDIN_TOKEN = 'tk_standin';

/** RFC 2047 `=?UTF-8?B?…?=` (and Q) encoded words, as ntfy decodes them in headers. */
function decodeHeader(v: string | undefined): string | undefined {
  return v?.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
  );
}

export function routeNtfy(app: Hono, posts: ChannelPosts): void {
  app.post('/ntfy/:topic', async (c) => {
    const raw = await c.req.text();
    const topic = c.req.param('topic');
    const answer = (status: number, reply: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(reply);
      posts.add({ service: 'ntfy', path: c.req.path, headers: headersOf(c.req.raw.headers), body: raw, status, reply: text });
      return c.body(text, status as 200, { 'content-type': 'application/json', ...headers });
    };
    const error = (http: number, code: number, words: string, headers: Record<string, string> = {}) =>
      answer(http, { code, http, error: words, link: 'https://ntfy.sh/docs/publish/' }, headers);
    if (!/^[-_A-Za-z0-9]{1,64}$/.test(topic)) return error(400, 40009, 'invalid request: topic invalid');
    if (topic === GONE) return error(404, 40401, 'page not found');
    if (topic === RATE_LIMITED && posts.limitOnce(c.req.path))
      return error(429, 42901, 'limit reached: too many requests', { 'retry-after': '1' });
    if (topic === 'protected' && c.req.header('authorization') !== `Bearer ${NTFY_STANDIN_TOKEN}`) return error(403, 40301, 'forbidden');
    if (Buffer.byteLength(raw, 'utf8') > MAX_BYTES) return error(413, 41301, 'message too large, and attachments are not allowed');
    const click = c.req.header('click');
    if (click && !/^https?:\/\//.test(click)) return error(400, 40013, 'invalid request: click URL invalid');
    return answer(200, {
      id: `standin${Date.now().toString(36)}`,
      time: Math.floor(Date.now() / 1000),
      event: 'message',
      topic,
      title: decodeHeader(c.req.header('title')),
      message: raw,
      tags: c.req
        .header('tags')
        ?.split(',')
        .map((t) => t.trim()),
      click,
    });
  });
}
