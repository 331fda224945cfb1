import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while the server renders and while the page hydrates, true after: text in the browser's locale (a date)
 * waits for it, since the server does not know that locale and a different text would break hydration.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
