import { useSyncExternalStore } from 'react';

/**
 * The timer a message linked to (`/#timer-<id>`, or `/#timer-<id>-run-<runId>` for one of its runs;
 * core/delivery/links.ts), kept until Manage Timers has shown it: a signed-out visitor signs in first, and the
 * request waits for that.
 */
let linked: number | null = null;
let linkedRun: number | null = null;
const listeners = new Set<() => void>();

function set(next: number | null, run: number | null = null): void {
  linked = next;
  linkedRun = run;
  for (const listener of listeners) listener();
}

/** Reads the address's fragment; true when it names a timer, which then waits for Manage Timers. */
export function followTimerLink(): boolean {
  const match = /^#timer-(\d+)(?:-run-(\d+))?$/.exec(window.location.hash);
  if (match) set(Number(match[1]), match[2] ? Number(match[2]) : null);
  return match !== null;
}

/** The run the link named within its timer, else null (the timer's latest run is meant). */
export function linkedRunOf(): number | null {
  return linkedRun;
}

/** Manage Timers has shown the linked timer (or said it is gone): the request is done. */
export function clearTimerLink(): void {
  set(null);
}

/** The linked timer's id while its request is waiting, else null. */
export function useTimerLink(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => linked,
    () => null,
  );
}
