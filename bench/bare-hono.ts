import { serve } from '@hono/node-server';
import { Hono } from 'hono';

// The baseline for API throughput: the same framework and server adapter with no middleware, database or Redis.
const app = new Hono();
app.get('/healthz', (c) => c.json({ status: 'ok' }));
app.get('/api/check-session', (c) => c.json({ loggedIn: true }));
serve({ fetch: app.fetch, port: Number(process.argv[2] ?? 0) });
