import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { basicAuth } from 'hono/basic-auth';
import type { AppDeps, AppEnv } from '../deps';

export const ADMIN_BASE_PATH = '/admin/queues';

/**
 * The operators' Bull Board, behind HTTP basic auth. With no ADMIN_USER/ADMIN_PASSWORD nothing is mounted, so
 * the path answers 404 like any unknown page. Bull Board finds its UI files (views and static assets) in
 * @bull-board/ui at run time; the server bundle keeps node_modules external, so this also works from dist/.
 */
export function adminRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const admin = deps.config.admin;
  if (!admin) return app;

  const serverAdapter = new HonoAdapter(serveStatic).setBasePath(ADMIN_BASE_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(deps.timersQueue)],
    // @bull-board/hono pins its own patch release of @bull-board/api: the same interface, declared twice.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
    options: { uiConfig: { boardTitle: 'Event Finder queues' } },
  });

  const auth = basicAuth({ username: admin.user, password: admin.password, realm: 'Event Finder operators' });
  app.use(ADMIN_BASE_PATH, auth);
  app.use(`${ADMIN_BASE_PATH}/*`, auth);
  app.route(ADMIN_BASE_PATH, serverAdapter.registerPlugin());
  return app;
}
