import { describe, expect, it } from 'vitest';
import { openPage, shot } from '../dev/harness/browser';
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

  it('tells a first-time visitor what the product does and offers the sign-in above the plans', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/`);
    const intro = page.getByRole('region', { name: 'Event Finder' });
    await intro.waitFor();
    expect(await intro.textContent()).toContain('Ask about conferences, meetups and other events in your own words');
    const signIn = intro.getByRole('button', { name: 'Sign in with Google' });
    await signIn.waitFor();
    // Above the plans: the header comes first on the page.
    const [introBox, plansBox] = [await intro.boundingBox(), await page.locator('.plan-grid').boundingBox()];
    expect(introBox!.y + introBox!.height).toBeLessThanOrEqual(plansBox!.y);
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      // Nothing runs off the side of a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `first-visit-${width}`);
    }

    // Signing in from here goes to the search with the question focused, and the header goes.
    await signIn.click();
    const chooser = page.getByRole('dialog', { name: 'Choose an account' });
    await chooser.getByRole('button', { name: /Ada Lovelace/ }).click();
    await page.locator('[data-view="home"]').getByLabel('Your Question').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'ques');
    expect(await intro.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
