import { describe, expect, it } from 'vitest';
import { SESSION_PROOF_COOKIE } from '../core/auth/session-proof';
import { getBilling } from '../db/accounts';
import { useSearches } from './support/billing';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { browserSuite, openSignedInHome } from './support/browser-suite';
import { ALLOWANCES } from '../core/plans';
import { formatDayOf } from '../core/time/event-date-format';

describe('the event search screen in Chromium', () => {
  const suite = browserSuite();

  const signedInHome = () => openSignedInHome(suite);

  it('streams the answer into Response while the button reads Searching..., with its links clickable', async () => {
    const { page, errors, user } = await signedInHome();
    suite.stack.standins.gemini.setChunkDelay(250);
    const question = page.getByLabel('Your Question');
    expect(await question.getAttribute('placeholder')).toBe('Find AI conferences in Berlin');
    expect(await page.locator('[data-view="home"] .credits-badge').textContent()).toBe('10 searches left');
    await question.fill('Find AI conferences in Berlin next month');
    const response = page.getByRole('region', { name: 'Response' });
    // Read-only: a labelled region the user reads, not a field they could type into.
    expect(await page.getByRole('textbox', { name: 'Response' }).count()).toBe(0);
    expect(await response.getAttribute('contenteditable')).toBeNull();

    await page.getByRole('button', { name: 'Search Events' }).click();
    const busy = page.getByRole('button', { name: 'Searching...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);

    // The text grows while the search runs: note its length every time it changes, until the button is back.
    await page.waitForFunction(() => (document.querySelector('.response')?.textContent ?? '').length > 0);
    const lengths = await page.evaluate(
      () =>
        new Promise<number[]>((resolve) => {
          const seen: number[] = [];
          const area = document.querySelector('.response')!;
          const observer = new MutationObserver(() => {
            seen.push(area.textContent!.length);
            if (!document.querySelector('.search__actions [type=submit]:disabled')) {
              observer.disconnect();
              resolve(seen);
            }
          });
          observer.observe(document.querySelector('.search')!, { subtree: true, childList: true, characterData: true, attributes: true });
        }),
    );
    const distinct = [...new Set(lengths.filter((n) => n > 0))];
    expect(distinct.length).toBeGreaterThanOrEqual(3);
    expect(distinct).toEqual([...distinct].sort((a, b) => a - b));

    const button = page.getByRole('button', { name: 'Search Events' });
    await button.waitFor();
    expect(await button.isEnabled()).toBe(true);
    const text = await response.textContent();
    expect(text).toContain('AI Summit Berlin');
    expect(text).toContain('Sources:');
    const summitPage = `${suite.stack.standins.url}/sites/grounded/ai-summit-berlin.html`;
    const link = response.getByRole('link', { name: summitPage }).first();
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(summitPage);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(suite.stack.standins.gemini.lastRequest!.prompt).toMatch(/The user's time zone is [A-Za-z_/]+/);
    expect((await getBilling(suite.stack.db.sql, user.id, ALLOWANCES))!.credits).toBe(9);
    // The credits badge on the home view follows the search.
    await page.locator('[data-view="home"] .credits-badge').getByText('9 searches left').waitFor();
    await shot(page, 'search-answer');

    // Set Timer opens its panel and hides the Response area (spec section 2); Manage Timers shows the list.
    await page.getByRole('button', { name: 'Set Timer' }).click();
    await response.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    await response.waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Manage Timers' }).getAttribute('aria-expanded')).toBe('true');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("shows Google's Search Suggestions with a grounded answer, in a sandboxed frame that runs no script", async () => {
    const { page, errors } = await signedInHome();
    await page.getByLabel('Your Question').fill('AI conferences in Berlin');
    await page.getByRole('button', { name: 'Search Events' }).click();
    const frame = page.frameLocator('iframe[title="Google Search suggestions for this answer"]');
    // The one query the prompt asks for, with the year (docs/decisions/gemini-and-cost.md).
    const query = `AI conferences in Berlin ${new Date().getUTCFullYear()}`;
    const chip = frame.getByRole('link', { name: query, exact: true });
    await chip.waitFor();
    expect(await chip.getAttribute('href')).toBe(`https://www.google.com/search?q=${encodeURIComponent(query)}`);
    expect(await chip.getAttribute('target')).toBe('_blank');
    const element = page.locator('iframe.search__suggestions');
    expect(await element.getAttribute('sandbox')).not.toContain('allow-scripts');
    // Google's own styles apply inside the frame (a rounded, bordered chip), none of them outside it.
    expect(await chip.evaluate((a) => getComputedStyle(a).borderTopLeftRadius)).toBe('16px');
    const src = (await element.getAttribute('src'))!;
    const res = await page.request.get(new URL(src, page.url()).toString());
    expect(res.headers()['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    expect(unexpectedErrors(errors)).toEqual([]);
    await shot(page, 'search-suggestions');
    await page.context().close();
  });

  it('shows no Search Suggestions for an answer from a website, which is not grounded', async () => {
    const { page } = await signedInHome();
    await page.getByLabel('Your Question').fill('AI meetups');
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/berlin-ai.html`);
    await page.getByRole('button', { name: 'Search Events' }).click();
    await page.getByRole('heading', { name: 'Events in this answer' }).waitFor();
    expect(await page.locator('iframe.search__suggestions').count()).toBe(0);
    await page.context().close();
  });

  it("shows a server error as a compact alert 'Error: Backend error: ...' beside the search", async () => {
    const { page, errors } = await signedInHome();
    await page.getByLabel('Your Question').fill('Events');
    await page.getByLabel('Website URL').fill('http://10.0.0.1/events');
    await page.getByRole('button', { name: 'Search Events' }).click();
    const alert = page.locator('.search').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Error: Backend error: The website address 10.0.0.1 points to a private or local network, which we do not read. Use a public website.',
    );
    // The Response area stays the answer's place: empty, not a pink box with the error in it.
    expect(await page.getByRole('region', { name: 'Response' }).textContent()).toBe('');
    expect(unexpectedErrors(errors)).toEqual([]);
    await shot(page, 'search-error');
    await page.context().close();
  });

  it('shows an answer that begins with "Error:" as an answer, not as an error', async () => {
    const { page, errors } = await signedInHome();
    suite.stack.standins.gemini.answerNext('Error: 404 Conference, the yearly meetup about broken links, is on 4 April.\n');
    await page.getByLabel('Your Question').fill('Conferences about errors');
    await page.getByRole('button', { name: 'Search Events' }).click();
    const response = page.getByRole('region', { name: 'Response' });
    await response.getByText('Error: 404 Conference').waitFor();
    await page.getByRole('button', { name: 'Search Events' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await response.evaluate((el) => getComputedStyle(el).color)).toBe(
      await page.locator('body').evaluate((el) => getComputedStyle(el).color),
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says when the searches renew and leads to the plans when none are left', async () => {
    const { page, errors, user } = await signedInHome();
    await useSearches(suite.stack, user.id, 10);
    const [account] = await suite.stack.db.sql<{ period_end: Date }[]>`select period_end from accounts where user_id = ${user.id}`;
    await page.getByLabel('Your Question').fill('Meetups in Lisbon');
    await page.getByRole('button', { name: 'Search Events' }).click();
    const alert = page.locator('.search').getByRole('alert');
    await alert.getByText(/renew on/).waitFor();
    // The day it falls on in the browser's zone, in the one date style (core/time/event-date-format.test.ts).
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const renews = formatDayOf(account!.period_end, zone);
    expect(renews).toMatch(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}$/);
    expect(await alert.locator('.alert__text').textContent()).toBe(
      `Error: Backend error: You have used all 10 searches of your free plan this month. Your searches renew on ${renews}.`,
    );
    await page.locator('[data-view="home"] .credits-badge').getByText('0 searches left').waitFor();
    await shot(page, 'search-out-of-searches');
    await alert.getByRole('button', { name: 'See plans' }).click();
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor({ state: 'visible' });
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.context().close();
  });

  it('switches to the signed-out view with a sentence when the session has ended', async () => {
    const { page, errors, user } = await signedInHome();
    await suite.stack.db.sql`delete from sessions where user_id = ${user.id}`;
    // The browser's session proof outlives a session deleted elsewhere by at most its lifetime (docs/decisions/sign-in-and-sessions.md);
    // once that has passed the browser has dropped the cookie, as here.
    await page.context().clearCookies({ name: SESSION_PROOF_COOKIE });
    await page.getByLabel('Your Question').fill('Meetups in Lisbon');
    await page.getByRole('button', { name: 'Search Events' }).click();
    const home = page.locator('[data-view="home"]');
    await home.getByRole('heading', { name: 'Login with Google' }).waitFor();
    expect(await home.getByRole('status').filter({ hasText: 'session' }).textContent()).toBe(
      'Your session has ended. Please sign in again to continue.',
    );
    await home.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(0);
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.context().close();
  });
});
