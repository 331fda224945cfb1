import { useSyncExternalStore } from 'react';

/**
 * The timer a message linked to (`/#timer-<id>`, core/delivery/links.ts), kept until Manage Timers has shown
 * it: a signed-out visitor signs in first, and the request waits for that.
 */
let linked: number | null = null;
const listeners = new Set<() => void>();

function set(next: number | null): void {
  linked = next;
  for (const listener of listeners) listener();
}

/** Reads the address's fragment; true when it names a timer, which then waits for Manage Timers. */
export function followTimerLink(): boolean {
  const match = /^#timer-(\d+)$/.exec(window.location.hash);
  if (match) set(Number(match[1]));
  return match !== null;
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
