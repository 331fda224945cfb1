/**
 * Google's Search Suggestions beside a grounded answer, as Google's terms require: its markup is Google's, so it
 * lives in a sandboxed frame of its own that runs no script (GET …/searches/:id/suggestions).
 */
export function SearchSuggestions({ url }: { url: string }) {
  return (
    <iframe
      className="search__suggestions"
      title="Google Search suggestions for this answer"
      src={url}
      sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"
      referrerPolicy="no-referrer"
    />
  );
}
