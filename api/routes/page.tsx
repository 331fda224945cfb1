import path from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { getBilling } from '../../db/accounts';
import type { AppState } from '../../web/client/app-state';
import { manifestReader } from '../../web/manifest';
import { IndexPage } from '../../web/pages/index';
import { renderPage } from '../../web/render';
import type { AppDeps, AppEnv } from '../deps';
import { billingReply } from './billing';
import { ALLOWANCES } from '../../core/plans';

/** GET / (server-rendered, with islands) and the hashed assets it links. */
export function pageRoutes({ config, sql, publicDir }: AppDeps) {
  const app = new Hono<AppEnv>();
  const manifest = manifestReader(publicDir);

  app.use(
    '/assets/*',
    serveStatic({
      root: path.relative(process.cwd(), publicDir) || '.',
      // File names carry a content hash, so a file never changes under its name.
      onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );

  app.get('/', async (c) => {
    const user = c.get('user');
    const billing = user ? await getBilling(sql, user.id, ALLOWANCES) : null;
    // The page opens on the plans, as the spec says; a search's own address (`/?search=<id>`) asks for that
    // search, on the home view.
    const state: AppState = {
      view: c.req.query('search') ? 'home' : 'subscription',
      loggedIn: user !== null,
      billing: billing ? billingReply(billing) : null,
    };
    const html = renderPage(
      <IndexPage
        state={state}
        checkout={{
          success: c.req.query('success') === 'true',
          sessionId: c.req.query('session_id') ?? '',
          canceled: c.req.query('canceled') === 'true',
        }}
        google={{ clientId: config.google.clientId, gsiUrl: config.google.gsiUrl }}
        supportEmail={config.supportEmail}
      />,
      {
        title: 'Event Finder: find conferences and meetups',
        description: 'Ask about conferences, meetups and events and read the answer as it is written.',
        externalScripts: user ? [] : [config.google.gsiUrl],
      },
      manifest(),
    );
    c.header('Cache-Control', 'no-store');
    return c.html(html);
  });
  return app;
}
