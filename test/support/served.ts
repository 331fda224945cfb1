import { expect } from 'vitest';

/**
 * GET / answers the page, and every island script it links (content-hashed under /assets/) is served as
 * JavaScript; returns the page's HTML and headers for further checks.
 */
export async function expectPageWithIslandScripts(appUrl: string): Promise<{ html: string; headers: Headers }> {
  const page = await fetch(`${appUrl}/`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Choose Your Plan');
  const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) {
    expect(src).toMatch(/^\/assets\/.+-[A-Z0-9]{8}\.js$/);
    const res = await fetch(new URL(src, appUrl));
    expect(res.status, src).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
  }
  return { html, headers: page.headers };
}

/** Bull Board answers behind basic auth, with the UI files it finds on disk at run time. */
export async function expectBullBoard(appUrl: string, user: string, password: string): Promise<void> {
  const headers = { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
  expect((await fetch(`${appUrl}/admin/queues`)).status).toBe(401);
  const page = await fetch(`${appUrl}/admin/queues`, { headers });
  expect(page.status).toBe(200);
  const asset = /src="(static\/js\/main[^"]+\.js)"/.exec(await page.text())?.[1];
  expect(asset, 'Bull Board page links its main script').toBeTruthy();
  expect((await fetch(`${appUrl}/admin/queues/${asset}`, { headers })).status).toBe(200);
}
