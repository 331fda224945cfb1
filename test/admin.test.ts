import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../dev/harness/stack';

describe('Bull Board at /admin/queues', () => {
  let withAdmin: TestStack;
  let withoutAdmin: TestStack;
  beforeAll(async () => {
    [withAdmin, withoutAdmin] = await Promise.all([
      startTestStack({ env: { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'correct horse' } }),
      startTestStack(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([withAdmin?.close(), withoutAdmin?.close()]);
  });

  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it('asks for credentials and refuses wrong ones', async () => {
    const none = await fetch(`${withAdmin.url}/admin/queues`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic/);
    const wrong = await fetch(`${withAdmin.url}/admin/queues`, { headers: { authorization: basic('ops', 'nope') } });
    expect(wrong.status).toBe(401);
    const api = await fetch(`${withAdmin.url}/admin/queues/api/queues`);
    expect(api.status).toBe(401);
  });

  it('serves the board, its assets and its API with credentials', async () => {
    const headers = { authorization: basic('ops', 'correct horse') };
    const page = await fetch(`${withAdmin.url}/admin/queues`, { headers });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Event Finder queues');
    const asset = /src="(static\/js\/main[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(`${withAdmin.url}/admin/queues/${asset}`, { headers });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    const queues = await fetch(`${withAdmin.url}/admin/queues/api/queues`, { headers });
    expect(queues.status).toBe(200);
    expect(JSON.stringify(await queues.json())).toContain('timers');
  });

  it('is off (404) when ADMIN_USER and ADMIN_PASSWORD are unset', async () => {
    expect((await fetch(`${withoutAdmin.url}/admin/queues`)).status).toBe(404);
    expect((await fetch(`${withoutAdmin.url}/admin/queues`, { headers: { authorization: basic('ops', 'x') } })).status).toBe(404);
  });
});
