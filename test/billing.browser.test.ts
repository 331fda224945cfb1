import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { getBillingJson, subscribe } from './support/billing';
import { openPage, shot } from '../dev/harness/browser';
import { browserSuite } from './support/browser-suite';
import { createSignedInUser } from '../dev/harness/users';

describe('plans and billing in Chromium', () => {
  const suite = browserSuite();

  /** A page signed in as a new user, with console errors and the page's own requests collected. */
  async function signedInPage(path = '/') {
    const signedIn = await createSignedInUser(suite.stack.db.sql);
    const { page, errors } = await openPage(suite.browser, 'about:blank');
    await page.context().addCookies([{ name: 'ef_session', value: signedIn.token, url: suite.stack.url }]);
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    // The recent searches load after the page (a lazy chunk, then GET /api/searches); a test that ends the
    // session waits for them first, or their request may arrive after it and be refused.
    const historyRead = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/searches');
    historyRead.catch(() => {}); // not awaited by every test: the page may close first
    await page.goto(`${suite.stack.url}${path}`);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    return { ...signedIn, page, errors, requests, historyRead };
  }

  const card = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^Choose the ${name} plan`) });
  const plans = (page: Page) => page.locator('[data-view="subscription"]');
  const credits = (page: Page, text: string) => plans(page).locator('.credits-badge').getByText(text).waitFor();
  const checkoutCalls = (requests: Request[]) => requests.filter((r) => r.url().endsWith('/create-checkout-session'));
  const idle = (page: Page) => page.locator('.plan-grid[aria-busy="false"]').waitFor();
  /** The page's own plan question (the spec's words as its title), not the browser's confirm box. */
  const planQuestion = (page: Page, tier: string) =>
    page.getByRole('dialog', { name: `Are you sure you want to switch to the ${tier} plan?` });
  const noBrowserConfirm = (page: Page) =>
    page.on('dialog', (d) => {
      if (d.type() === 'confirm') throw new Error(`unexpected browser confirm box: ${d.message()}`);
    });

  it('after paying for Plus mid-month, the badge says how many of the month’s searches are used', async () => {
    const { page, user, errors } = await signedInPage();
    await suite.stack.db.sql`update accounts set searches_used = 10 where user_id = ${user.id}`;
    await page.reload();
    await credits(page, '0 searches left');
    await card(page, 'Plus').click();
    await page.waitForURL(`${suite.stack.standins.url}/checkout/**`);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Subscription successful!' }).waitFor();
    // Plus has 50 a month; 10 were used on Free this month: 40 left, and one plain line says why.
    await credits(page, '40 searches left');
    expect(await plans(page).locator('.credits-note').textContent()).toBe("You have used 10 of this month's 50 searches.");
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `plans-used-this-month-${width}`);
    }
    expect(errors).toEqual([]);
  });

  it('goes free → plus via checkout, plus → pro with the dialog, then back to free with the alert', async () => {
    const { page, cookie, errors } = await signedInPage();
    await credits(page, '10 searches left');
    expect(await page.locator('.plan-card--current').getAttribute('data-tier')).toBe('free');
    // The current plan is not a button at all; a free user has no billing to manage.
    expect(await card(page, 'Free').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Manage Billing' }).count()).toBe(0);
    await shot(page, 'plans-free');

    await card(page, 'Plus').click();
    await page.waitForURL(`${suite.stack.standins.url}/checkout/**`);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Subscription successful!' }).waitFor();
    await credits(page, '50 searches left');
    expect(await page.getByRole('button', { name: 'Manage Billing' }).isVisible()).toBe(true);
    expect(await page.locator('input[type=hidden][name=session_id]').inputValue()).toMatch(/^cs_test_/);
    // Shown once: the address no longer carries ?success&session_id, so a reload does not show it again.
    await page.waitForURL(`${suite.stack.url}/`);
    await shot(page, 'plans-checkout-success');
    await page.reload();
    await credits(page, '50 searches left');
    expect(await page.getByRole('heading', { name: 'Subscription successful!' }).count()).toBe(0);

    const alerts: string[] = [];
    page.on('dialog', (d) => {
      alerts.push(`${d.type()}: ${d.message()}`);
      void d.accept();
    });
    await card(page, 'Pro').click();
    // The spec's question, then what the switch does to this month's searches.
    const toPro = planQuestion(page, 'pro');
    await toPro.waitFor();
    expect(await toPro.locator('.confirm-dialog__text').textContent()).toBe(
      'Your 50 searches left this month become 120 at once: Pro has 120 a month.',
    );
    await toPro.getByRole('button', { name: 'Switch to Pro' }).click();
    await credits(page, '120 searches left');
    expect(await page.locator('.plan-card--current').getAttribute('data-tier')).toBe('pro');

    await card(page, 'Free').click();
    const toFree = planQuestion(page, 'free');
    await toFree.waitFor();
    // A downgrade says what happens to the searches left before it is confirmed.
    expect(await toFree.locator('.confirm-dialog__text').textContent()).toBe(
      'Your 120 searches left this month become 10 at once: Free has 10 a month.',
    );
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await shot(page, `plan-question-downgrade-${width}`);
    }
    await toFree.getByRole('button', { name: 'Switch to Free' }).click();
    await credits(page, '10 searches left');
    expect(alerts).toEqual(['alert: ✅ Subscription canceled. You are now on the Free plan.']);
    expect(await page.locator('.plan-card--current').getAttribute('data-tier')).toBe('free');
    expect(await getBillingJson(suite.stack, cookie)).toMatchObject({ subscription_tier: 'free' });
    expect(errors).toEqual([]);
  });

  it('does not switch when the question is answered no: focus stays in the dialog and goes back to the card', async () => {
    const { page, cookie, requests, errors } = await signedInPage();
    await subscribe(suite.stack, cookie, 'plus_monthly');
    await page.reload();
    await credits(page, '50 searches left');
    noBrowserConfirm(page);
    const pro = card(page, 'Pro');
    await pro.focus();
    await page.keyboard.press('Enter');
    const question = planQuestion(page, 'pro');
    await question.waitFor();
    // Focus starts on the way out and stays inside the dialog: the page behind it is inert.
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(await focusedText()).toBe('Keep Plus');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Switch to Pro');
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') != null || document.activeElement === document.body)).toBe(
        true,
      );
    }
    // Escape keeps the plan and gives focus back to the card that asked.
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'hidden' });
    await idle(page);
    expect(await pro.evaluate((el) => el === document.activeElement)).toBe(true);

    // The same with the dialog's own button.
    await page.keyboard.press('Enter');
    await question.waitFor();
    await question.getByRole('button', { name: 'Keep Plus' }).click();
    await question.waitFor({ state: 'hidden' });
    await idle(page);
    expect(await pro.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(checkoutCalls(requests)).toEqual([]);
    expect(await getBillingJson(suite.stack, cookie)).toMatchObject({ subscription_tier: 'plus' });
    expect(errors).toEqual([]);
  });

  it('asks before changing a plan that changed in another tab since the page loaded', async () => {
    const { page, cookie, requests, errors } = await signedInPage();
    await credits(page, '10 searches left');
    // Another tab subscribes to Plus; this one still shows Free.
    await subscribe(suite.stack, cookie, 'plus_monthly');
    noBrowserConfirm(page);
    await card(page, 'Pro').click();
    const question = planQuestion(page, 'pro');
    await question.waitFor();
    await question.getByRole('button', { name: 'Keep Plus' }).click();
    await credits(page, '50 searches left');
    await idle(page);
    expect(checkoutCalls(requests)).toEqual([]);
    expect(await page.locator('.plan-card--current').getAttribute('data-tier')).toBe('plus');
    expect(errors).toEqual([]);
  });

  it('lets a paid user open the billing portal from the plans at any time', async () => {
    const { page, cookie } = await signedInPage();
    await subscribe(suite.stack, cookie, 'plus_monthly');
    await page.reload();
    await credits(page, '50 searches left');
    await page.getByRole('button', { name: 'Manage Billing' }).click();
    await page.waitForURL(`${suite.stack.standins.url}/portal/**`);
  });

  it('shows the payment failed banner after a failed renewal, reached through Manage Billing', async () => {
    const { page, cookie } = await signedInPage();
    const { sessionId } = await subscribe(suite.stack, cookie, 'plus_monthly');
    await page.goto(`${suite.stack.url}/?success=true&session_id=${sessionId}`);
    await page.getByRole('button', { name: 'Manage Billing' }).click();
    await page.waitForURL(`${suite.stack.standins.url}/portal/**`);
    await page.getByRole('button', { name: 'Simulate failed renewal' }).click();
    await page.getByText('past_due').waitFor();
    await page.getByRole('link', { name: 'Return to Event Finder' }).click();
    await page.waitForURL(`${suite.stack.url}/`);
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.locator('p').textContent()).toBe('⚠️ Your payment failed. Please update your billing info to keep using Plus.');
    // Something to fix comes before the offer to upgrade.
    const [warning, promo] = [await banner.boundingBox(), await page.locator('.banner--promo').boundingBox()];
    expect(warning!.y).toBeLessThan(promo!.y);
    await shot(page, 'plans-payment-failed');

    // The banner's own way to fix the card: the portal of this user's customer, no checkout session needed.
    await banner.getByRole('button', { name: 'Update billing info' }).click();
    await page.waitForURL(`${suite.stack.standins.url}/portal/**`);
    await page.getByText('past_due').waitFor();
  });

  it('keeps the canceled note in state without showing it, and sends a logged-out click home', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/?canceled=true`);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    expect(await page.locator('.plan-picker').getAttribute('data-checkout-note')).toBe(
      "Order canceled -- continue to shop around and checkout when you're ready.",
    );
    expect(await page.getByText('Order canceled').count()).toBe(0);
    expect(await page.locator('.credits-badge').count()).toBe(0);
    await page.waitForURL(`${suite.stack.url}/`);
    await card(page, 'Plus').click();
    await page.getByRole('heading', { name: 'Login with Google' }).waitFor({ state: 'visible' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('offers the data export and deletes the account after a confirmation in a modal dialog', async () => {
    const { page, user, errors, historyRead } = await signedInPage();
    await credits(page, '10 searches left');
    expect((await historyRead).status()).toBe(200);
    const data = plans(page).getByRole('region', { name: 'Your data' });
    expect(await data.getByRole('link', { name: 'Export my data (JSON)' }).getAttribute('href')).toBe('/api/account/export');
    // The page's own dialog, not the browser's confirm box.
    page.on('dialog', (d) => {
      throw new Error(`unexpected browser dialog: ${d.message()}`);
    });
    const opener = data.getByRole('button', { name: 'Delete my account' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('This cannot be undone.');
    // Focus starts on the safe choice and stays inside the dialog: the page behind it is inert.
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(await focusedText()).toBe('Keep my account');
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Yes, delete my account');
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') != null || document.activeElement === document.body)).toBe(
        true,
      );
    }
    for (const width of [320, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await shot(page, `delete-account-dialog-${width}`);
    }
    // Escape keeps the account and gives focus back to the button that opened the dialog.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await suite.stack.db.sql`select 1 from users where id = ${user.id}`).length).toBe(1);

    await opener.click();
    await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
    await page.getByText('Your account is deleted. A confirmation email is on its way.').waitFor();
    await page.getByRole('heading', { name: 'Login with Google' }).waitFor({ state: 'visible' });
    expect((await suite.stack.db.sql`select 1 from users where id = ${user.id}`).length).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
