import { createServer, type RequestListener, type ServerOptions } from 'node:http';
import type { QuickRoute } from './quick-check-session';

/**
 * @hono/node-server's `createServer` option: Node's server whose requests meet `quick` first
 * (api/quick-check-session.ts) and go to the app when it leaves them. The api (api/main.ts) and the test stack
 * (dev/harness/stack.ts) serve through it alike. A quick route that throws (a fault of ours) must not take the
 * process down with it: its request goes to the app if nothing was written yet, and is ended otherwise.
 */
export function withQuickRoute(quick: QuickRoute): typeof createServer {
  const create = (options: ServerOptions, app: RequestListener) =>
    createServer(options, (req, res) => {
      let answered: boolean;
      try {
        answered = quick(req, res);
      } catch {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        answered = false;
      }
      if (!answered) void app(req, res);
    });
  return create as typeof createServer;
}
