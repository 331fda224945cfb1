/**
 * The product's name as a link home, for pages people reach from outside the search (an email's link, an
 * address that does not exist): who this is, and a way back.
 */
export function BrandBar({ appUrl }: { appUrl: string }) {
  return (
    <header className="brand-bar">
      <a className="brand-bar__name" href={appUrl}>
        <span className="brand-bar__mark" aria-hidden="true" />
        Event Finder
      </a>
    </header>
  );
}
