import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getBillingJson, subscribe } from './support/billing';
import { browserSuite } from './support/browser-suite';
import { createSignedInUser } from './support/users';

const SHOTS = process.env.SCREENSHOT_DIR;

describe('plans and billing in Chromium', () => {
  const suite = browserSuite();

  /** A page signed in as a new user, with console errors collected. */
  async function signedInPage(path = '/') {
    const signedIn = await createSignedInUser(suite.stack.db.sql);
    const context = await suite.browser.newContext();
    await context.addCookies([{ name: 'ef_session', value: signedIn.token, url: suite.stack.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(`${msg.text()} ${msg.location().url}`));
    await page.goto(`${suite.stack.url}${path}`);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    return { ...signedIn, page, errors };
  }

  const card = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^Choose the ${name} plan`) });
  const shot = async (page: Page, name: string) => SHOTS && page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

  it('goes free → plus via checkout, plus → pro with the dialog, then back to free with the alert', async () => {
    const { page, cookie, errors } = await signedInPage();
    await page.getByText('10 searches left').waitFor();
    expect(await page.locator('.plan-card--current').getAttribute('data-tier')).toBe('free');
    // The current plan is not a button at all.
    expect(await card(page, 'Free').count()).toBe(0);
    await shot(page, 'plans-free');

    await card(page, 'Plus').click();
    await page.waitForURL(`${suite.stack.standins.url}/checkout/**`);
    await shot(page, 'standin-checkout');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(new RegExp(`^${suite.stack.url}/\\?success=true&session_id=cs_test_`));
    await page.getByRole('heading', { name: 'Subscription successful!' }).waitFor();
    await page.getByText('50 searches left').waitFor();
    expect(await page.getByRole('button', { name: 'Manage Billing' }).isVisible()).toBe(true);
    expect(await page.locator('input[type=hidden][name=session_id]').inputValue()).toMatch(/^cs_test_/);
    await shot(page, 'plans-checkout-success');

    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.accept();
    });
    await card(page, 'Pro').click();
    await page.getByText('120 searches left').waitFor();
    expect(await page.locator('.plan-card--current').getAttribute('data-tier')).toBe('pro');
    expect(dialogs).toEqual(['confirm: Are you sure you want to switch to the pro plan?']);

    await card(page, 'Free').click();
    await page.getByText('10 searches left').waitFor();
    expect(dialogs.slice(1)).toEqual([
      'confirm: Are you sure you want to switch to the free plan?',
      'alert: ✅ Subscription canceled. You are now on the Free plan.',
    ]);
    expect(await page.locator('.plan-card--current').getAttribute('data-tier')).toBe('free');
    expect(await getBillingJson(suite.stack, cookie)).toMatchObject({ subscription_tier: 'free' });
    expect(errors).toEqual([]);
  });

  it('does not switch when the confirmation is dismissed', async () => {
    const { page, cookie } = await signedInPage();
    await subscribe(suite.stack, cookie, 'plus_monthly');
    await page.reload();
    await page.getByText('50 searches left').waitFor();
    page.once('dialog', (d) => void d.dismiss());
    await card(page, 'Pro').click();
    await page.waitForTimeout(300);
    expect(await getBillingJson(suite.stack, cookie)).toMatchObject({ subscription_tier: 'plus' });
  });

  it('shows the payment failed banner after a failed renewal, reached through Manage Billing', async () => {
    const { page, cookie } = await signedInPage();
    const { sessionId } = await subscribe(suite.stack, cookie, 'plus_monthly');
    await page.goto(`${suite.stack.url}/?success=true&session_id=${sessionId}`);
    await page.getByRole('button', { name: 'Manage Billing' }).click();
    await page.waitForURL(`${suite.stack.standins.url}/portal/**`);
    await shot(page, 'standin-portal');
    await page.getByRole('button', { name: 'Simulate failed renewal' }).click();
    await page.getByText('past_due').waitFor();
    await page.getByRole('link', { name: 'Return to Event Finder' }).click();
    await page.waitForURL(`${suite.stack.url}/`);
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.locator('p').textContent()).toBe('⚠️ Your payment failed. Please update your billing info to keep using plus.');
    await shot(page, 'plans-payment-failed');

    // The banner's own way to fix the card: the portal of this user's customer, no checkout session needed.
    await banner.getByRole('button', { name: 'Update billing info' }).click();
    await page.waitForURL(`${suite.stack.standins.url}/portal/**`);
    await page.getByText('past_due').waitFor();
  });

  it('keeps the canceled note in state without showing it, and sends a logged-out click home', async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${suite.stack.url}/?canceled=true`);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    expect(await page.locator('.plan-picker').getAttribute('data-checkout-note')).toBe(
      "Order canceled -- continue to shop around and checkout when you're ready.",
    );
    expect(await page.getByText('Order canceled').count()).toBe(0);
    expect(await page.locator('.credits-badge').count()).toBe(0);
    await shot(page, 'plans-logged-out');
    await card(page, 'Plus').click();
    await page.getByRole('heading', { name: 'Login with Google' }).waitFor({ state: 'visible' });
    await context.close();
  });
});
