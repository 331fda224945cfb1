import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { basicAuth } from 'hono/basic-auth';
import { metricsText } from '../core/metrics';

export interface MetricsServer {
  port: number;
  close: () => Promise<void>;
}

/**
 * A worker's own small HTTP server (WORKER_METRICS_PORT): `/metrics` for Prometheus, behind the operators'
 * basic auth like the api's, and `/healthz` for liveness. Each worker is scraped on its own, as each api
 * process is (docs/decisions/scale-out-and-redis.md).
 */
export async function startMetricsServer(port: number, admin: { user: string; password: string }): Promise<MetricsServer> {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.use('/metrics', basicAuth({ username: admin.user, password: admin.password, realm: 'Event Finder operators' }));
  app.get('/metrics', async (c) => {
    const { body, contentType } = await metricsText();
    return c.body(body, 200, { 'content-type': contentType, 'cache-control': 'no-store' });
  });
  const server = await new Promise<Server>((resolve, reject) => {
    // The adapter would otherwise swap the process's global Request and Response for its own lightweight ones:
    // a gain for an api's replies, but here the only Responses made are the Gemini client's, one per streamed
    // chunk, each then read with .json(), which the lightweight class does by building the real one anyway.
    const s = serve({ fetch: app.fetch, port, overrideGlobalObjects: false }, () => resolve(s as Server));
    (s as Server).once('error', reject);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
