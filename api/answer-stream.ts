import type { Context } from 'hono';

export const ANSWER_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  // Proxies such as nginx must pass each chunk on at once instead of buffering the answer.
  'x-accel-buffering': 'no',
  'cache-control': 'no-store',
};

/**
 * The streamed body of an answer: text is written as it arrives, and `started` resolves with the first text,
 * so a route can hold its status line until it knows whether an answer is coming at all.
 */
export function answerStream(abort: AbortController) {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  let wrote = false;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const body = new ReadableStream<Uint8Array>({
    start: (ctl) => {
      controller = ctl;
    },
    // The browser went away (or the proxy closed): stop paying for an answer nobody reads.
    cancel: () => {
      open = false;
      abort.abort();
    },
  });
  const writable = () => open && !abort.signal.aborted;
  return {
    body,
    started,
    get hasText() {
      return wrote;
    },
    write(text: string) {
      wrote = true;
      markStarted();
      if (writable()) controller.enqueue(encoder.encode(text));
    },
    /** Ends the reply, after `tail` when given; a reply that already ended stays as it is. */
    end(tail?: string) {
      if (!writable()) return;
      if (tail) controller.enqueue(encoder.encode(tail));
      controller.close();
      open = false;
    },
  };
}

/** Node's response, which @hono/node-server hands the app as `env.outgoing`; absent under app.request(). */
interface NodeEnv {
  outgoing?: { cork?: () => void; uncork?: () => void };
}

/**
 * Sends the status line and headers in the same socket write as the first text. @hono/node-server writes a
 * streamed reply's head on its own (`flushHeaders`) and then the first chunk, two writes where one would do:
 * on loopback each write costs about as much as all our work after the first chunk (the stream benchmark's
 * timeline, in BENCHMARKS.md). Call it just before returning a stream whose first text is already queued: the writes of
 * this turn of the event loop are held (cork) and go out together once the promise chain that writes the
 * head and the queued text has run (nextTick comes after it). Without a Node response it does nothing.
 */
export function headWithFirstText(c: Context): void {
  const outgoing = (c.env as NodeEnv | undefined)?.outgoing;
  if (typeof outgoing?.cork !== 'function' || typeof outgoing.uncork !== 'function') return;
  outgoing.cork();
  process.nextTick(() => outgoing.uncork?.());
}
