/** A timer pauses itself after this many failed runs in a row (skipped runs neither count nor break the streak). */
export const AUTO_PAUSE_AFTER_FAILURES = 3;

/** The sentence Manage Timers shows for a timer that paused itself. */
export function autoPauseReason(failures: number, lastError: string | null): string {
  return `Paused after ${failures} failed runs in a row${lastError ? ` (last error: ${lastError})` : ''}. Check the question and website, then resume.`;
}
