import { describe, expect, it } from 'vitest';
import { openPage } from './support/browser';
import { browserSuite } from './support/browser-suite';

describe('the page in Chromium', () => {
  const suite = browserSuite();

  it('renders the plan picker, hydrates its island and switches view on click', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/`);
    await expect(page.getByRole('heading', { name: 'Choose Your Plan' }).isVisible()).resolves.toBe(true);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    // The FAQ works before any script runs: it is plain <details>.
    expect(await page.locator('details').count()).toBe(2);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'Login with Google' }).waitFor({ state: 'visible' });
    expect(await page.locator('[data-view="subscription"]').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Subscription' }).click();
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor({ state: 'visible' });
    expect(errors).toEqual([]);
  });
});
