/** A timer pauses itself after this many failed runs in a row (skipped runs neither count nor break the streak). */
export const AUTO_PAUSE_AFTER_FAILURES = 3;

/** Why a timer paused itself, as Manage Timers shows it after "Paused.". */
export function autoPauseReason(failures: number, lastError: string | null): string {
  const last = lastError ? ` Last error: ${lastError.trim().replace(/([^.!?])$/, '$1.')}` : '';
  return `${failures} runs in a row failed.${last} Check the question and the website, then resume.`;
}
