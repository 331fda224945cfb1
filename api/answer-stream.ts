import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';

export const ANSWER_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  // Proxies such as nginx must pass each chunk on at once instead of buffering the answer.
  'x-accel-buffering': 'no',
  'cache-control': 'no-store',
};

/** Node's response, which @hono/node-server hands the app as `env.outgoing`; absent under app.request(). */
function nodeResponse(c: Context): ServerResponse | null {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  return outgoing && typeof outgoing.writeHead === 'function' ? outgoing : null;
}

/** A reply's headers as Node's writeHead takes them, each Set-Cookie on its own. */
function rawHeaders(headers: Headers): string[] {
  const raw: string[] = [];
  for (const [name, value] of headers) raw.push(name, value);
  return raw;
}

/**
 * The streamed body of an answer. Text is held until the route calls `reply` (once it knows an answer is coming:
 * `started` resolves with the first text), then written as it arrives.
 *
 * On @hono/node-server each piece goes straight to Node's response as a string: the status line, the headers and
 * the text held so far leave in one socket write, and each later piece in one more, with no web stream, encoder
 * or read loop between the model's chunk and the socket (decision 077). Under app.request() (tests) the same
 * text is a web stream.
 */
export function answerStream(abort: AbortController) {
  const held: string[] = [];
  let send: ((text: string) => void) | null = null;
  let finish: ((tail?: string) => void) | null = null;
  let open = true;
  let ended = false;
  let endTail: string | undefined;
  let wrote = false;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const writable = () => open && !abort.signal.aborted;
  // The reader went away (the browser, or the proxy closed): stop paying for an answer nobody reads.
  const gone = () => {
    open = false;
    abort.abort();
  };

  /** Once the reply is open: the text held until then, and the end if it came first. */
  const flushHeld = (pieces: readonly string[]) => {
    for (const text of pieces) send!(text);
    held.length = 0;
    if (ended) finish!(endTail);
  };

  const viaNode = (c: Context, outgoing: ServerResponse, status: 200, headers: Record<string, string>): Response => {
    // Hono's own headers for this reply (the session proof's Set-Cookie among them) join those the middleware
    // already set on Node's response (presetHeaders).
    const prepared = c.body(null, status, headers);
    outgoing.writeHead(status, rawHeaders(prepared.headers));
    send = (text) => {
      if (!outgoing.destroyed) outgoing.write(text);
    };
    finish = (tail) => {
      if (!outgoing.destroyed) outgoing.end(tail);
    };
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) gone();
    });
    // Node writes the head with the first text in one write.
    flushHeld([held.join('')]);
    // Tells @hono/node-server the reply is already being written. Its own instance, made before the server
    // replaced the global Response with its lighter one: a fresh one made now would be that lighter kind, which
    // @hono/node-server writes out again whatever its headers say.
    return RESPONSE_ALREADY_SENT;
  };

  const viaWebStream = (c: Context, status: 200, headers: Record<string, string>): Response => {
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (ctl) => {
        controller = ctl;
      },
      cancel: gone,
    });
    send = (text) => controller.enqueue(encoder.encode(text));
    finish = (tail) => {
      if (tail) controller.enqueue(encoder.encode(tail));
      controller.close();
    };
    flushHeld(held);
    return c.body(body, status, headers);
  };

  return {
    started,
    get hasText() {
      return wrote;
    },
    write(text: string) {
      wrote = true;
      markStarted();
      if (!writable() || ended) return;
      if (send) send(text);
      else held.push(text);
    },
    /** Ends the reply, after `tail` when given; a reply that already ended stays as it is. */
    end(tail?: string) {
      if (!writable() || ended) return;
      ended = true;
      endTail = tail;
      if (finish) {
        finish(tail);
        open = false;
      }
    },
    /** The route's reply: the status line and headers, then the text so far and as it comes. */
    reply(c: Context, headers: Record<string, string>): Response {
      const outgoing = nodeResponse(c);
      const response = outgoing ? viaNode(c, outgoing, 200, headers) : viaWebStream(c, 200, headers);
      if (ended) open = false;
      return response;
    },
  };
}
