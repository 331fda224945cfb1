import { lazy, Suspense } from 'react';
import type { SearchHistoryProps } from './search-history';

// The history reads dates with the Intl code the first paint does without (web/client/format-time.ts): it loads
// after the page, like the event cards (decision 009).
const SearchHistoryChunk = lazy(() => import('./search-history'));

/** The user's recent searches, loaded after the page. */
export function LazySearchHistory(props: SearchHistoryProps) {
  return (
    <Suspense fallback={null}>
      <SearchHistoryChunk {...props} />
    </Suspense>
  );
}
