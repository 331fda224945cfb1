/**
 * A search's own address on the page, `/?search=<id>`: a reload, a bookmark or the history opens its answer and
 * events again (only for its owner: GET /api/searches/:id answers 404 to anyone else).
 */

/** The search the address names, else null. */
export function searchInAddress(): string | null {
  const id = new URLSearchParams(window.location.search).get('search');
  return id ? id : null;
}

/** Makes `/?search=<id>` the page's address (a new history entry, so Back returns to the search before it). */
export function showSearchAddress(id: string): void {
  if (searchInAddress() === id) return;
  window.history.pushState(null, '', `/?search=${encodeURIComponent(id)}`);
}

/** The address names no search any more (the one asked for failed): a reload shows no older search. */
export function clearSearchAddress(): void {
  if (searchInAddress() === null) return;
  const url = new URL(window.location.href);
  url.searchParams.delete('search');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
