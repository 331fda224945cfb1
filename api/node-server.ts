import { createServer, type RequestListener, type ServerOptions } from 'node:http';
import type { QuickRoute } from './quick-check-session';

/**
 * @hono/node-server's `createServer` option: Node's server whose requests meet `quick` first (api/quick-check-session.ts)
 * and go to the app when it leaves them. The api (api/main.ts) and the test stack (dev/harness/stack.ts) serve
 * through it alike.
 */
export function withQuickRoute(quick: QuickRoute): typeof createServer {
  const create = (options: ServerOptions, app: RequestListener) =>
    createServer(options, (req, res) => {
      if (!quick(req, res)) void app(req, res);
    });
  return create as typeof createServer;
}
