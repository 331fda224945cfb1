import type { Manifest } from '../web/manifest';
import { manifestReader } from '../web/manifest';
import { NotFoundPage } from '../web/pages/not-found';
import { renderPage } from '../web/render';
import type { AppDeps } from './deps';

/**
 * The 404 page a browser gets for an address the site does not have (api/app.ts decides who gets it), in the
 * product's look: the build's stylesheet when it can be read, plain HTML when not.
 */
export function notFoundPage({ config, publicDir }: Pick<AppDeps, 'config' | 'publicDir'>): () => string {
  const manifest = manifestReader(publicDir);
  const unstyled: Manifest = { islands: {}, css: '' };
  return () => {
    let built = unstyled;
    try {
      built = manifest();
    } catch {
      // No build output to link (a missing or half-written manifest): the sentence and the link still help.
    }
    return renderPage(
      <NotFoundPage appUrl={config.appUrl} />,
      { title: 'Page not found · Event Finder', description: 'This address is not a page of Event Finder.' },
      built,
    );
  };
}
