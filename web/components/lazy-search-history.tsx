import { lazy, Suspense } from 'react';
import { useHydrated } from '../hooks/use-hydrated';
import type { SearchHistoryProps } from './search-history';

// The history reads dates with the Intl code the first paint does without (web/client/format-time.ts): it loads
// after the page, like the event cards (docs/decisions/the-page.md).
const SearchHistoryChunk = lazy(() => import('./search-history'));

/**
 * The user's recent searches, loaded after the page. Nothing on the server: the list is the browser's to fetch,
 * and a lazy chunk on the server would hand its Suspense boundary to the client as an error.
 */
export function LazySearchHistory(props: SearchHistoryProps) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={null}>
      <SearchHistoryChunk {...props} />
    </Suspense>
  );
}
