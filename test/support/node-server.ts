import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';

export interface NodeServed {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  close: () => Promise<void>;
}

/**
 * Serves an app on a real Node server through @hono/node-server, as api/main.ts does, for a test that needs an
 * app configured unlike its stack's: middleware then sees Node's response (`env.outgoing`), which
 * app.request() does not give it.
 */
export async function serveOverNode(app: Pick<Parameters<typeof createAdaptorServer>[0], 'fetch'>): Promise<NodeServed> {
  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
