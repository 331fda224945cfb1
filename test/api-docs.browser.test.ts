import { describe, expect, it } from 'vitest';
import { openPage, shot } from '../dev/harness/browser';
import { seriousViolations } from './support/axe';
import { browserSuite } from './support/browser-suite';

/** GET /api/docs: the OpenAPI document as a page, readable on a phone, with no script under the strict CSP. */
describe('the API docs page', () => {
  const suite = browserSuite();

  it('lists every operation of the served document, runs no script and fits a phone', async () => {
    const served = (await (await fetch(`${suite.stack.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/api/docs`);
    await page.getByRole('heading', { name: 'Event Finder API', level: 1 }).waitFor();
    const operationCount = Object.values(served.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(await page.locator('script').count()).toBe(0);
    for (const [path, methods] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const heading = page.getByRole('heading', { name: `${method.toUpperCase()} ${path}`, exact: true });
        expect(await heading.count(), `${method} ${path}`).toBe(1);
        expect(await page.getByRole('link', { name: `${method.toUpperCase()} ${path}`, exact: true }).count()).toBe(1);
        expect(await page.getByText(op.summary, { exact: true }).count()).toBeGreaterThan(0);
      }
    }
    // The table of contents leads to each call.
    await page.getByRole('link', { name: 'GET /v1/timers/{id}/events' }).click();
    expect(page.url()).toMatch(/#op-listTimerEvents$/);
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `api-docs-${width}`);
    }
    // Each call's details are folded on arrival, so a phone scrolls through headings and summaries, not schemas.
    const folded = await page.evaluate(() =>
      [...document.querySelectorAll('details')]
        .filter((d) => d.querySelector('summary')?.textContent === 'Details: parameters, body and replies')
        .map((d) => d.open),
    );
    expect(folded.length).toBe(operationCount);
    expect(folded.every((open) => !open)).toBe(true);
    // Opened, a call shows its body and replies in place.
    const edit = page.locator('#op-updateTimer').locator('xpath=..');
    expect(await edit.getByRole('heading', { name: 'Replies' }).isVisible()).toBe(false);
    await edit.getByText('Details: parameters, body and replies').click();
    expect(await edit.getByRole('heading', { name: 'Replies' }).isVisible()).toBe(true);
    // A shared header parameter (a $ref in the document) is shown by its name, as an inline one is.
    const create = page.locator('#op-createTimer').locator('xpath=..');
    await create.getByText('Details: parameters, body and replies').click();
    expect(await create.locator('li code', { hasText: 'Idempotency-Key' }).count()).toBe(1);
    expect(await create.getByText('undefined').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
