import type { Context } from 'hono';
import { stream } from 'hono/streaming';

export const ANSWER_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  // Proxies such as nginx must pass each chunk on at once instead of buffering the answer.
  'x-accel-buffering': 'no',
  'cache-control': 'no-store',
};

/**
 * The streamed body of an answer, written through Hono's streaming helper (the same under @hono/node-server and
 * app.request()). Text is held until the route calls `reply` (once it knows an answer is coming: `started`
 * resolves with the first text), then written as it arrives; what arrives while a write is under way goes in
 * the next one. A reader that goes away (the browser, or the proxy closed) aborts `abort`: nobody pays for an
 * answer nobody reads.
 */
export function answerStream(abort: AbortController) {
  let pending = '';
  let ended = false;
  let tail = '';
  let wrote = false;
  let wake: (() => void) | null = null;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const nudge = () => {
    wake?.();
    wake = null;
  };

  return {
    started,
    get hasText() {
      return wrote;
    },
    write(text: string) {
      wrote = true;
      markStarted();
      if (ended || abort.signal.aborted) return;
      pending += text;
      nudge();
    },
    /** Ends the reply, after `tail` when given; a reply that already ended stays as it is. */
    end(last?: string) {
      if (ended) return;
      ended = true;
      tail = abort.signal.aborted ? '' : (last ?? '');
      nudge();
    },
    /** The route's reply: the status line and headers, then the text so far and as it comes. */
    reply(c: Context, headers: Record<string, string>): Response {
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      return stream(c, async (out) => {
        out.onAbort(() => abort.abort());
        for (;;) {
          if (pending) {
            const text = pending;
            pending = '';
            await out.write(text);
          } else if (ended) {
            if (tail) await out.write(tail);
            return;
          } else {
            await new Promise<void>((resolve) => (wake = resolve));
          }
        }
      });
    },
  };
}
