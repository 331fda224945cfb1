import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './support/browser';
import { startTestStack, type TestStack } from './support/stack';

describe('the page in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('renders the plan picker, hydrates its island and switches view on click', async () => {
    const { page, errors } = await openPage(browser, `${stack.url}/`);
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
