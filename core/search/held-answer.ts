import type { SearchResult } from './index';

type OnText = (text: string) => void | Promise<void>;

/**
 * An answer asked for before its credit is taken: Gemini spends its time to first token while our bookkeeping
 * runs. Its text is held until `release` hands over where it goes; `cancel` aborts the request instead, and no
 * text ever reaches the caller. The answer's own signal follows the caller's, so a client that leaves still
 * cancels it.
 */
export function heldAnswer(
  start: (onText: OnText, signal: AbortSignal) => Promise<SearchResult>,
  callerSignal: AbortSignal | undefined,
): { result: Promise<SearchResult>; signal: AbortSignal; release: (onText: OnText) => void; cancel: () => void } {
  const abort = new AbortController();
  // With the caller's reason, so a deadline that ran out is still told from a client that left.
  if (callerSignal?.aborted) abort.abort(callerSignal.reason);
  else callerSignal?.addEventListener('abort', () => abort.abort(callerSignal.reason), { once: true });
  let release!: (onText: OnText) => void;
  let refuse!: (err: Error) => void;
  const gate = new Promise<OnText>((resolve, reject) => {
    release = resolve;
    refuse = reject;
  });
  // The gate is only awaited once text arrives; a cancel before that must not be an unhandled rejection.
  gate.catch(() => {});
  const result = start(async (text) => (await gate)(text), abort.signal);
  // Awaited only after the bookkeeping; a refusal from Gemini before that must not be an unhandled rejection.
  result.catch(() => {});
  return {
    result,
    signal: abort.signal,
    release,
    cancel: () => {
      refuse(new Error('The answer was cancelled before its credit was taken.'));
      abort.abort();
    },
  };
}
