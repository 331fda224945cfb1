import type { Context, Next } from 'hono';

export type HeaderList = readonly (readonly [name: string, value: string])[];

/** Node's response, which @hono/node-server hands the app as `env.outgoing`; absent under app.request(). */
interface NodeEnv {
  outgoing?: { setHeader: (name: string, value: string) => unknown; headersSent?: boolean };
}

/**
 * Adds headers to the reply unless the route set its own. On @hono/node-server they go straight onto Node's
 * response (`setHeader`), which merges them under the reply's own headers when it is written; a fetch
 * `Headers.set` costs several times more (undici converts, validates and re-sorts on each), and these run on
 * every request. Without a Node response (app.request() in tests, other runtimes) they are added to the
 * finished reply instead, with the same outcome.
 */
export async function presetHeaders(c: Context, headers: HeaderList, next: Next): Promise<void> {
  const outgoing = (c.env as NodeEnv | undefined)?.outgoing;
  if (outgoing && typeof outgoing.setHeader === 'function' && !outgoing.headersSent) {
    for (const [name, value] of headers) outgoing.setHeader(name, value);
    await next();
    return;
  }
  await next();
  const replyHeaders = c.res.headers;
  for (const [name, value] of headers) if (!replyHeaders.has(name)) replyHeaders.set(name, value);
}
