import { BrandBar } from '../components/brand-bar';

export interface NotFoundPageProps {
  appUrl: string;
}

/**
 * An address the site does not have, opened in a browser: says so in the product's look and leads to the
 * search. It renders no island, so it ships no JavaScript.
 */
export function NotFoundPage({ appUrl }: NotFoundPageProps) {
  return (
    <div className="app">
      <BrandBar appUrl={appUrl} />
      <main id="main">
        <section className="panel not-found" aria-labelledby="not-found-title">
          <h1 id="not-found-title">This page does not exist</h1>
          <p>There is nothing at this address. It may be mistyped, or the link that led here is out of date.</p>
          <p>
            <a className="button" href={appUrl}>
              Go to the event search
            </a>
          </p>
        </section>
      </main>
    </div>
  );
}
