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
