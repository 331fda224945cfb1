import { describe, expect, it } from 'vitest';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { PROBLEM_MEDIA_TYPE } from '../core/contract/problem';
import { openPage, shot, unexpectedErrors } from '../dev/harness/browser';
import { seriousViolations } from './support/axe';
import { browserSuite } from './support/browser-suite';
import { createSignedInUser } from '../dev/harness/users';

/** An address the site does not have: a page for a browser, the API's own 404 on its paths. */
describe('an unknown address', () => {
  const suite = browserSuite();
  const get = (path: string, accept: string, headers: Record<string, string> = {}) =>
    fetch(`${suite.stack.url}${path}`, { headers: { accept, ...headers } });
  const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

  it('answers a browser 404 with a page in the product look that leads to the search', async () => {
    const res = await get('/no-such-page', BROWSER_ACCEPT);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
    const html = await res.text();
    expect(html).toContain('<h1 id="not-found-title">This page does not exist</h1>');
    // The product's stylesheet, and no JavaScript.
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+\.css">/);
    expect(html).not.toContain('<script');
  });

  it('keeps the API paths’ own 404 replies, and plain text for a request that is not a page', async () => {
    const api = await get('/api/no-such-route', BROWSER_ACCEPT);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await api.json()).toEqual({ error: 'There is no such API route.' });

    const { cookie } = await createSignedInUser(suite.stack.db.sql);
    const made = await fetch(`${suite.stack.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, origin: suite.stack.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'not found check', scopes: ['read'] }),
    });
    const { token } = createdApiTokenReplySchema.parse(await made.json());
    const v1 = await get('/v1/no-such-route', BROWSER_ACCEPT, { authorization: `Bearer ${token}` });
    expect(v1.status).toBe(404);
    expect(v1.headers.get('content-type')).toBe(PROBLEM_MEDIA_TYPE);
    expect(await v1.json()).toMatchObject({ status: 404, code: 'not_found' });

    const script = await get('/assets/no-such-file.js', '*/*');
    expect(script.status).toBe(404);
    expect(script.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await script.text()).toBe('Not found');
  });

  it('shows the page at 320, 390 and 1280 px with no serious accessibility problem, its link going to the search', async () => {
    const { page, errors } = await openPage(suite.browser, 'about:blank');
    const res = await page.goto(`${suite.stack.url}/no-such-page`);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'This page does not exist' }).waitFor();
    expect(await page.title()).toBe('Page not found · Event Finder');
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 700 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `not-found-${width}`);
    }
    expect(await seriousViolations(page)).toEqual([]);
    // The page's stylesheet loaded: the link is one of the product's buttons.
    const link = page.getByRole('link', { name: 'Go to the event search' });
    expect(await link.evaluate((el) => getComputedStyle(el).display)).toBe('inline-flex');
    const [start] = await Promise.all([page.waitForEvent('load'), link.click()]);
    expect(start.url()).toBe(`${suite.stack.url}/`);
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.context().close();
  });
});
