import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, shot, unexpectedErrors } from '../dev/harness/browser';
import { appFetch, getBillingJson } from './support/billing';
import { browserSuite, openSignedInHome } from './support/browser-suite';

// A newcomer's first minutes: sign in from the first screen and type a question at once; a plan chosen before
// signing in goes on to its checkout; what Run now and a timer cost is said before anything is spent.
describe('the first minutes in Chromium', () => {
  // The worker runs "Run now" like a scheduled fire.
  const suite = browserSuite({ worker: true });

  const plans = (page: Page) => page.locator('[data-view="subscription"]');
  const home = (page: Page) => page.locator('[data-view="home"]');
  const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.tagName);

  /** The stand-in's account chooser: picks a new identity (a new user each time) with the keyboard. */
  async function chooseNewIdentity(page: Page, name: string, email: string): Promise<void> {
    const chooser = page.getByRole('dialog', { name: 'Choose an account' });
    await chooser.waitFor();
    await chooser.getByLabel('Name').fill(name);
    await chooser.getByLabel('Email').fill(email);
    await chooser.getByLabel('Email').press('Enter');
    await chooser.waitFor({ state: 'detached' });
  }

  /** Tabs from the top of the page until `name`'s control has focus. */
  async function tabTo(page: Page, name: string): Promise<void> {
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const label = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
      if (label === name) return;
    }
    throw new Error(`Tab never reached "${name}"`);
  }

  it('signs in from the plans view with the keyboard and types the question without another click; later loads offer the search first', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/`, { viewport: { width: 390, height: 844 } });
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    // The spec's start view: the plans, with the way in on them.
    await plans(page).getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    await plans(page).getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await tabTo(page, 'Sign in with Google');
    await page.keyboard.press('Enter');
    await chooseNewIdentity(page, 'Grace Hopper', 'grace@example.com');

    // The search, with the question focused: typing lands there.
    await home(page).getByLabel('Your Question').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'ques');
    await page.keyboard.type('AI meetups in Berlin');
    expect(await home(page).getByLabel('Your Question').inputValue()).toBe('AI meetups in Berlin');
    expect(await plans(page).isHidden()).toBe(true);
    await shot(page, 'first-minutes-signed-in-390');

    // A later load still opens on the plans; its first control is the way to the search.
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    await plans(page).getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    const first = await plans(page).getByRole('button').first().textContent();
    expect(first).toBe('Go to search');
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `first-minutes-plans-signed-in-${width}`);
    }
    await tabTo(page, 'Go to search');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'ques');
    await page.keyboard.type('Rust meetups');
    expect(await home(page).getByLabel('Your Question').inputValue()).toBe('Rust meetups');
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('a plan chosen signed out continues to its checkout after sign-in', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/`);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    await plans(page)
      .getByRole('button', { name: /^Choose the Pro plan/ })
      .click();
    // Home, to sign in (the spec), saying what happens next.
    await home(page).getByRole('heading', { name: 'Login with Google' }).waitFor();
    await home(page).getByText('Sign in to continue with the Pro plan.').waitFor();
    await shot(page, 'first-minutes-sign-in-for-plan');
    await home(page).getByRole('button', { name: 'Sign in with Google' }).click();
    await chooseNewIdentity(page, 'Mary Jackson', 'mary@example.com');

    await page.waitForURL(`${suite.stack.standins.url}/checkout/**`);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Subscription successful!' }).waitFor();
    await plans(page).locator('.credits-badge').getByText('120 searches left').waitFor();
    // Chosen once: a reload does not start another checkout.
    await page.reload();
    await plans(page).locator('.credits-badge').getByText('120 searches left').waitFor();
    expect(page.url()).toBe(`${suite.stack.url}/`);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('a plan chosen signed out that is already the plan goes on to the search', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/`);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    await plans(page)
      .getByRole('button', { name: /^Choose the Free plan/ })
      .click();
    await home(page).getByRole('button', { name: 'Sign in with Google' }).click();
    await chooseNewIdentity(page, 'Dorothy Vaughan', 'dorothy@example.com');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'ques');
    expect(await plans(page).isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('says what Run now and a timer cost before anything is spent', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite, { locale: 'en-GB', viewport: { width: 390, height: 844 } });
    await page.getByLabel('Your Question').fill('AI events in Berlin');

    // Set Timer opens at "Describe it", its first field; the schedule says what it costs against the plan.
    await page.getByRole('button', { name: 'Set Timer' }).click();
    const panel = page.getByRole('region', { name: 'Set Timer' });
    await panel.getByLabel('Describe it').waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('.describe-timer') != null);
    const type = panel.getByLabel('Schedule Type');
    expect(await type.getAttribute('aria-describedby')).toBeTruthy();
    const cost = panel.locator(`[id="${await type.getAttribute('aria-describedby')}"]`);
    expect(await cost.textContent()).toBe(
      'Each run uses one search. Every day: about 30 searches a month; your plan has 10. Once they are used up, runs are skipped until they renew.',
    );
    await shot(page, 'first-minutes-set-timer-cost-390');
    await type.selectOption('weekly');
    expect(await cost.textContent()).toBe('Each run uses one search. Every week: about 4 searches a month; your plan has 10.');

    // An empty time is said in the picker's terms, not the wire format's.
    await panel.getByLabel('Time', { exact: true }).fill('');
    await panel.getByRole('button', { name: 'Save Timer' }).click();
    await panel.getByRole('alert').filter({ hasText: '❌ Error saving timer: Please choose a time for the timer to run.' }).waitFor();
    expect(await focusedName(page)).toBe('INPUT');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe('time');
    await panel.getByRole('button', { name: 'Cancel' }).click();

    const saved = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({
        scheduleType: 'daily',
        time: '03:00',
        weekday: '',
        ques: 'AI events in Berlin',
        web: `${suite.stack.standins.url}/sites/berlin-ai.html`,
        timezone: 'Europe/Berlin',
      }),
    });
    expect(saved.status).toBe(200);
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = page.getByRole('region', { name: 'Your Timers' }).getByRole('listitem').first();
    const runNow = row.getByRole('button', { name: 'Run now' });
    await runNow.waitFor();
    // No answer yet: Manage Timers shows no empty Response box under it.
    expect(await home(page).getByRole('heading', { name: 'Response' }).count()).toBe(0);

    // Said before it runs, tied to the button; nothing is spent by saying it.
    const runCost = row.locator(`[id="${await runNow.getAttribute('aria-describedby')}"]`);
    expect(await runCost.textContent()).toBe('Run now uses 1 of your 10 searches left.');
    expect(await getBillingJson(suite.stack, cookie)).toMatchObject({ credits: 10 });
    await shot(page, 'first-minutes-run-now-cost-390');
    await runNow.click();
    await row.locator('.timer-run__head').first().waitFor({ timeout: 30_000 });
    await runCost.filter({ hasText: 'Run now uses 1 of your 9 searches left.' }).waitFor();
    expect(await getBillingJson(suite.stack, cookie)).toMatchObject({ credits: 9 });
    expect(unexpectedErrors(errors)).toEqual([]);
  }, 90_000);

  it('a failed search leaves no older search in the address; forms say what they saved and start afresh', async () => {
    const { page, errors, user, cookie } = await openSignedInHome(suite, { viewport: { width: 1280, height: 900 } });
    await page.getByLabel('Your Question').fill('AI events in Berlin');
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/berlin-ai.html`);
    await page.getByRole('button', { name: 'Search Events' }).click();
    await page.waitForURL(/\?search=\d+$/);
    await page.getByText('Finding the events in this answer…').waitFor({ state: 'detached' });

    // Out of searches: the next one fails, and the address stops naming the one before it.
    await suite.stack.db.sql`update accounts set searches_used = 10 where user_id = ${user.id}`;
    await page.getByRole('button', { name: 'Search Events' }).click();
    await page.getByRole('alert').filter({ hasText: 'Backend error' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await suite.stack.db.sql`update accounts set searches_used = 0 where user_id = ${user.id}`;

    // "Deliver only checked events" says it saved, beside the box.
    const saved = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({ scheduleType: 'daily', time: '03:00', weekday: '', ques: 'AI events', web: '', timezone: 'UTC' }),
    });
    expect(saved.status).toBe(200);
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = page.getByRole('region', { name: 'Your Timers' }).getByRole('listitem').first();
    await row.getByText(/^Notifications:/).click();
    const checkedOnly = row.getByLabel(/^Deliver only events checked on their page/);
    await checkedOnly.click();
    await row.getByRole('status').filter({ hasText: 'Saved: only checked events will be delivered.' }).waitFor();
    expect(await checkedOnly.isChecked()).toBe(true);
    await shot(page, 'first-minutes-checked-only-1280');

    // A new API token starts from the form's defaults, not the last token's scopes.
    await page.getByRole('button', { name: 'Subscription' }).click();
    await page.getByText('API tokens').click();
    const search = page.getByRole('checkbox', { name: /^Search/ });
    await search.check();
    await page.getByLabel('Token name').fill('Agent');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByLabel(/Your new token/).waitFor();
    expect(await search.isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: /^Read your timers/ }).isChecked()).toBe(true);
    expect(unexpectedErrors(errors)).toEqual([]);
  }, 90_000);
});
