/**
 * What stops one fetch: the caller's signal (the search was cancelled) or the fetch's own time limit, whichever
 * comes first. One AbortController, a timer and a listener, rather than AbortSignal.any over
 * AbortSignal.timeout: those signals are let go through weak references the garbage collector must process on
 * the main thread, as the reading pool found (docs/decisions/reading-sandbox.md). `release` clears the timer and the listener once
 * the fetch is over, so neither outlives it.
 */
export interface FetchDeadline {
  signal: AbortSignal;
  /** Whether the time limit, not the caller, stopped the fetch. */
  readonly timedOut: boolean;
  release(): void;
}

export function fetchDeadline(timeoutMs: number, caller?: AbortSignal): FetchDeadline {
  const controller = new AbortController();
  let timedOut = false;
  // The reason AbortSignal.timeout gives, so what undici reports of a stopped fetch stays the same.
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  // As AbortSignal.timeout's, the timer alone keeps no process running.
  timer.unref();
  const callerAborted = () => controller.abort(caller?.reason);
  if (caller?.aborted) callerAborted();
  else caller?.addEventListener('abort', callerAborted, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    release() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', callerAborted);
    },
  };
}
