import { Hono, type Context } from 'hono';
import { setTimerEmail } from '../../db/timer-delivery';
import { findUnsubscribeTarget } from '../../db/unsubscribe-tokens';
import { manifestReader } from '../../web/manifest';
import { UnsubscribePage } from '../../web/pages/unsubscribe';
import { renderPage } from '../../web/render';
import type { AppDeps, AppEnv } from '../deps';

/**
 * Unsubscribe links of the emails (no sign-in: the token is the secret). GET shows the state and a button;
 * POST turns the timer's email off (RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click`);
 * POST …/undo turns it back on. Cross-site POSTs are allowed here on purpose (see api/app.ts).
 */
export function unsubscribeRoutes({ sql, config, publicDir }: AppDeps) {
  const app = new Hono<AppEnv>();
  const manifest = manifestReader(publicDir);

  const page = async (c: Context<AppEnv>, change: boolean | null) => {
    const token = c.req.param('token') ?? '';
    const target = await findUnsubscribeTarget(sql, token);
    let emailOn = target?.email ?? false;
    if (target && change !== null) {
      await setTimerEmail(sql, target.timerId, change);
      if (emailOn !== change) c.get('log').info({ timerId: target.timerId, email: change }, 'timer email changed by unsubscribe link');
      emailOn = change;
    }
    const html = renderPage(
      <UnsubscribePage
        question={target?.question ?? null}
        emailOn={emailOn}
        changed={change !== null}
        token={token}
        appUrl={config.appUrl}
      />,
      { title: 'Event Finder: timer emails', description: 'Turn a timer’s emails off or on.' },
      manifest(),
    );
    c.header('Cache-Control', 'no-store');
    // Keep the token out of Referer headers when someone follows a link from this page.
    c.header('Referrer-Policy', 'no-referrer');
    return c.html(html, target ? 200 : 404);
  };

  app.get('/unsubscribe/:token', (c) => page(c, null));
  app.post('/unsubscribe/:token', (c) => page(c, false));
  app.post('/unsubscribe/:token/undo', (c) => page(c, true));
  return app;
}
