import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors';

/** JSON and form bodies: a question, a timer or a sign-in token is a few KB at most. */
export const FORM_BODY_MAX_BYTES = 64 * 1024;
/** Stripe's events are a few KB; their largest (invoices with many lines) stay well under this. */
export const WEBHOOK_BODY_MAX_BYTES = 1024 * 1024;

/** How long a refused connection still reads (and drops) what the client sends after the 413 before it closes. */
const LINGER_MS = 2000;

/**
 * A refused body is left unread, so its connection cannot carry another request. The reply says
 * `Connection: close`, so a keep-alive client (a load balancer's pool) opens a new connection instead of sending
 * the next request, perhaps another user's, into this one. Node then closes the socket as soon as the
 * reply is written; with the client still sending, that close is a reset that can reach the client before the
 * 413 does. So the socket closes gently instead: our side ends after the reply, and what the client still sends
 * is read and dropped until it stops or LINGER_MS pass ("lingering close").
 */
function closeAfterReply(c: Context): void {
  c.header('Connection', 'close');
  const socket: Socket | undefined = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
  if (!socket) return;
  let closing = false;
  socket.destroySoon = () => {
    if (closing) return;
    closing = true;
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
    socket.resume();
  };
}

/**
 * Refuses a request body over `maxBytes` with 413 before it is read whole: at once when Content-Length says so,
 * else as soon as the streamed (chunked) body passes the limit. The rest is never buffered: the Node adapter
 * drains a little of it and then closes the connection, which the reply announces with `Connection: close`.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  const limit = maxBytes >= 1024 * 1024 ? `${maxBytes / 1024 / 1024} MB` : `${maxBytes / 1024} KB`;
  const limited = bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      closeAfterReply(c);
      throw new ApiError(413, `The request is too large: its body is over ${limit}. Please send less (a shorter question or address).`);
    },
  });
  // GET and HEAD carry no body here (the Node adapter never gives them one), and asking a request for its body
  // makes the adapter build a full fetch Request with an AbortSignal, work no GET needs. A body
  // of a declared length is judged by the header alone, as hono's bodyLimit does, but without asking for the
  // body stream: the route's read then takes the adapter's direct path (no fetch Request).
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length === undefined || !/^\d+$/.test(length) || c.req.header('transfer-encoding') !== undefined) return limited(c, next);
    return Number(length) > maxBytes ? limited(c, next) : next();
  };
}
