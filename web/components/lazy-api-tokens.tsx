import { lazy, Suspense, useState } from 'react';

// The tokens list and form show only when asked for: they load then, keeping the page within its budget.
const ApiTokensChunk = lazy(() => import('./api-tokens').then((m) => ({ default: m.ApiTokens })));

/** "API tokens" on the plans view: a disclosure whose content loads when it is first opened. */
export function LazyApiTokens() {
  const [opened, setOpened] = useState(false);
  return (
    <section className="panel api-tokens-panel" aria-labelledby="api-tokens-title">
      <details onToggle={(e) => e.currentTarget.open && setOpened(true)}>
        <summary>
          <h2 id="api-tokens-title">API tokens</h2>
        </summary>
        {opened ? (
          <Suspense fallback={<p>Loading tokens…</p>}>
            <ApiTokensChunk />
          </Suspense>
        ) : null}
      </details>
    </section>
  );
}
