import { type MouseEvent, useEffect, useId, useState } from 'react';
import type { ListedSearch } from '../../core/contract/search-history';
import { fetchSearchHistory } from '../client/events';
import { formatMoment } from '../client/format-time';
import { errorText } from '../client/http';

export interface SearchHistoryProps {
  /** The search the Response area shows, marked as the current one in the list. */
  currentId: string | null;
  /** Bumped when a search has ended, so the list reads it again (the newest first). */
  refresh: number;
  /** A search chosen in the list: shown in the Response area, and its address becomes the page's. */
  onOpen: (id: string) => void;
}

// A short list keeps the page short; older searches come a page at a time on request.
const PAGE = 5;

/** '3 events', '1 event', 'No events', or that they are still being found. */
function eventsFound(s: ListedSearch): string {
  if (s.events_status === 'pending') return 'Finding events…';
  const count = s.events_count === 0 ? 'No events' : `${s.events_count} ${s.events_count === 1 ? 'event' : 'events'}`;
  return s.events_status === 'failed' ? `${count} (some could not be read)` : count;
}

/** A website as its host ('meetup.com'), the address itself when it is not one. */
function siteOf(website: string): string {
  try {
    return new URL(website).host.replace(/^www\./, '');
  } catch {
    return website;
  }
}

/**
 * The user's recent searches (GET /api/searches), newest first: each a link to its own address (`/?search=<id>`),
 * which opens its answer and events in place; older ones a page at a time.
 */
export default function SearchHistory({ currentId, refresh, onOpen }: SearchHistoryProps) {
  const id = useId();
  const [searches, setSearches] = useState<ListedSearch[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each bump of `refresh` reads the newest page again
  useEffect(() => {
    let gone = false;
    fetchSearchHistory(null, PAGE).then(
      (page) => {
        if (gone) return;
        setSearches(page.searches);
        setCursor(page.cursor);
        setHasMore(page.has_more);
        setFailure(null);
      },
      (err: unknown) => {
        if (!gone) setFailure(`Your recent searches could not be loaded: ${errorText(err)} Reload the page to try again.`);
      },
    );
    return () => {
      gone = true;
    };
  }, [refresh]);

  async function more() {
    setLoadingMore(true);
    try {
      const page = await fetchSearchHistory(cursor, PAGE);
      setSearches((s) => [...(s ?? []), ...page.searches.filter((n) => !s?.some((o) => o.id === n.id))]);
      setCursor(page.cursor);
      setHasMore(page.has_more);
    } catch (err) {
      setFailure(`Older searches could not be loaded: ${errorText(err)} Try again.`);
    } finally {
      setLoadingMore(false);
    }
  }

  function follow(event: MouseEvent<HTMLAnchorElement>, searchId: number) {
    // A new tab or window (a modifier, a middle click) opens the address as it is.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen(String(searchId));
  }

  // No searches yet: nothing to list, and no empty section lengthening the page.
  if (searches?.length === 0 && !failure) return null;
  return (
    <section className="history" aria-labelledby={`${id}-title`}>
      <h3 className="history__title" id={`${id}-title`}>
        Your recent searches
      </h3>
      {failure ? (
        <p className="history__note" role="alert">
          {failure}
        </p>
      ) : null}
      {searches === null && !failure ? <p className="history__note">Loading your searches…</p> : null}
      {searches && searches.length > 0 ? (
        <ul className="history__items" aria-labelledby={`${id}-title`}>
          {searches.map((s) => (
            <li key={s.id} className="history__item">
              <a
                className="history__link"
                href={`/?search=${s.id}`}
                aria-current={String(s.id) === currentId ? 'page' : undefined}
                onClick={(e) => follow(e, s.id)}
              >
                {s.question}
              </a>
              <span className="history__meta">
                {s.website ? <span className="history__site">{siteOf(s.website)}</span> : null}
                <time dateTime={s.created_at}>{formatMoment(s.created_at)}</time>
                <span>{eventsFound(s)}</span>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {hasMore ? (
        <button type="button" className="button button--secondary button--small" disabled={loadingMore} onClick={() => void more()}>
          {loadingMore ? 'Loading…' : 'Show older searches'}
        </button>
      ) : null}
    </section>
  );
}
