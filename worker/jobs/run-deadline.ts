/**
 * The signal one attempt of a timer run works under: aborted when BullMQ cancels the job, or when the attempt
 * has taken `ms` (reason: a `TimeoutError`, which core/search reports as the AI service taking too long). A
 * request to Gemini that never answers would otherwise hold the worker's slot, and the run, for good. `clear`
 * drops the timer once the attempt has ended, so finished runs hold no timers.
 */
export function runDeadline(jobSignal: AbortSignal | undefined, ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`The timer run took over ${ms} ms.`, 'TimeoutError')), ms);
  const cancelled = () => controller.abort(jobSignal?.reason);
  if (jobSignal?.aborted) cancelled();
  else jobSignal?.addEventListener('abort', cancelled, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      jobSignal?.removeEventListener('abort', cancelled);
    },
  };
}
