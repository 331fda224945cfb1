import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../dev/harness/browser';
import { browserSuite } from './support/browser-suite';

describe('Google sign-in in Chromium', () => {
  const suite = browserSuite();

  const home = (page: Page) => page.locator('[data-view="home"]');
  const signInButton = (page: Page) => home(page).getByRole('button', { name: 'Sign in with Google' });
  const logoutButton = (page: Page) => home(page).getByRole('button', { name: 'Logout' });
  // The search screen: its heading, or its question field once the search screen is complete.
  const searchScreen = (page: Page) =>
    home(page)
      .getByLabel('Your Question')
      .or(home(page).getByRole('heading', { name: 'Find events' }))
      .first();

  async function goHome(page: Page): Promise<void> {
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    await page.getByRole('button', { name: 'Back' }).click();
  }

  it('signs in with the stand-in button, stays signed in after reload, and logs out', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/`);
    await goHome(page);
    await home(page).getByRole('heading', { name: 'Login with Google' }).waitFor({ state: 'visible' });
    await signInButton(page).click();

    const chooser = page.getByRole('dialog', { name: 'Choose an account' });
    await chooser.waitFor({ state: 'visible' });
    await chooser.getByRole('button', { name: /Ada Lovelace/ }).click();
    await chooser.waitFor({ state: 'detached' });

    await logoutButton(page).waitFor({ state: 'visible' });
    await searchScreen(page).waitFor({ state: 'visible' });
    expect(await signInButton(page).count()).toBe(0);
    const [user] = await suite.stack.db.sql<{ name: string }[]>`select name from users where email = 'ada@example.com'`;
    expect(user?.name).toBe('Ada Lovelace');
    // The new free account's credits reach the plan picker without a reload.
    await page.getByRole('button', { name: 'Subscription' }).click();
    await page.locator('[data-view="subscription"] .credits-badge').getByText('10 searches left').waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Back' }).click();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'ef_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    // The server renders the signed-in state itself, so there is no flash of the sign-in button.
    await page.reload();
    const html = await (await page.request.get(`${suite.stack.url}/`)).text();
    expect(html).toContain('>Logout</button>');
    expect(html).not.toContain('Login with Google');
    await goHome(page);
    await logoutButton(page).waitFor({ state: 'visible' });
    await searchScreen(page).waitFor({ state: 'visible' });

    await logoutButton(page).click();
    await home(page).getByRole('heading', { name: 'Login with Google' }).waitFor({ state: 'visible' });
    // This page was rendered signed in without Google's script; the component loads it for the button.
    await signInButton(page).waitFor({ state: 'visible' });
    expect(await logoutButton(page).count()).toBe(0);
    expect(await (await page.request.get(`${suite.stack.url}/api/check-session`)).json()).toEqual({ loggedIn: false });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('lets a keyboard user sign in as a custom identity', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/`);
    await goHome(page);
    await signInButton(page).focus();
    await page.keyboard.press('Enter');
    const chooser = page.getByRole('dialog', { name: 'Choose an account' });
    await chooser.waitFor({ state: 'visible' });

    // Escape closes the chooser and returns focus to the button, as a modal dialog should.
    await page.keyboard.press('Escape');
    await chooser.waitFor({ state: 'detached' });
    expect(await signInButton(page).evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press('Enter');
    await chooser.getByLabel('Name').fill('Katherine Johnson');
    await chooser.getByLabel('Email').fill('katherine@example.com');
    await chooser.getByLabel('Email').press('Enter');
    await logoutButton(page).waitFor({ state: 'visible' });
    const [user] = await suite.stack.db.sql<{ name: string }[]>`select name from users where email = 'katherine@example.com'`;
    expect(user?.name).toBe('Katherine Johnson');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
