/**
 * A signal that aborts when its parent does (a client that left, a cancelled job) or when `ms` pass without
 * `restart`, with a `TimeoutError` reason, which core/search reports as the AI service taking too long. A
 * request to Gemini that is accepted and never answered would otherwise wait for good, holding a worker slot or
 * a user's search. `restart` makes it an idle deadline (each piece of answer starts the wait again); `clear`
 * drops the timer once the work has ended, so ended work holds no timers.
 */
export interface Deadline {
  signal: AbortSignal;
  restart: () => void;
  clear: () => void;
}

export function deadline(parent: AbortSignal | undefined, ms: number): Deadline {
  const controller = new AbortController();
  const expire = () => controller.abort(new DOMException(`No answer within ${ms} ms.`, 'TimeoutError'));
  const timer = setTimeout(expire, ms);
  const cancelled = () => {
    clearTimeout(timer);
    controller.abort(parent?.reason);
  };
  if (parent?.aborted) cancelled();
  else parent?.addEventListener('abort', cancelled, { once: true });
  let cleared = false;
  const clear = () => {
    cleared = true;
    clearTimeout(timer);
    parent?.removeEventListener('abort', cancelled);
  };
  return {
    signal: controller.signal,
    // Called for every piece of an answer: the same timer starts its wait again, with nothing made or unlinked.
    restart: () => {
      if (!cleared && !controller.signal.aborted) timer.refresh();
    },
    clear,
  };
}
