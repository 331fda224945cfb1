import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { devLoopbackRedirect } from '../api/middleware/dev-loopback-redirect';
import { loadConfig } from '../core/config';

function appFor(env: Record<string, string>) {
  const app = new Hono();
  app.use(devLoopbackRedirect(loadConfig(env)));
  app.get('/', (c) => c.text('page'));
  app.get('/healthz', (c) => c.text('ok'));
  app.post('/', (c) => c.text('posted'));
  return app;
}

describe('make dev: the page on another loopback name', () => {
  const dev = appFor({ NODE_ENV: 'development', APP_URL: 'http://localhost:8080' });

  it('sends http://127.0.0.1:8080/ (and [::1]) to APP_URL, keeping the checkout query', async () => {
    for (const host of ['127.0.0.1', '[::1]']) {
      const res = await dev.request(`http://${host}:8080/?success=true&session_id=cs_test_1`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('http://localhost:8080/?success=true&session_id=cs_test_1');
    }
    const plain = await dev.request('http://127.0.0.1:8080/');
    expect(plain.headers.get('location')).toBe('http://localhost:8080/');
  });

  it('serves APP_URL itself, other paths, other ports, non-loopback hosts and POSTs as before', async () => {
    expect(await (await dev.request('http://localhost:8080/')).text()).toBe('page');
    expect((await dev.request('http://127.0.0.1:8080/healthz')).status).toBe(200);
    expect((await dev.request('http://127.0.0.1:9999/')).status).toBe(200);
    expect((await dev.request('http://192.168.1.5:8080/')).status).toBe(200);
    expect((await dev.request('http://127.0.0.1:8080/', { method: 'POST' })).status).toBe(200);
  });

  it('is off outside development and when APP_URL is not a loopback address', async () => {
    const test = appFor({ NODE_ENV: 'test', APP_URL: 'http://localhost:8080' });
    expect((await test.request('http://127.0.0.1:8080/')).status).toBe(200);
    const prod = appFor({
      NODE_ENV: 'production',
      APP_URL: 'https://events.example.com',
      GOOGLE_CLIENT_ID: 'x',
      SESSION_SECRET: 's'.repeat(32),
      GEMINI_API_KEY: 'x',
      STRIPE_SECRET_KEY: 'x',
      STRIPE_WEBHOOK_SECRET: 'x',
    });
    expect((await prod.request('http://127.0.0.1/')).status).toBe(200);
    const lan = appFor({ NODE_ENV: 'development', APP_URL: 'http://devbox.lan:8080' });
    expect((await lan.request('http://127.0.0.1:8080/')).status).toBe(200);
  });
});
