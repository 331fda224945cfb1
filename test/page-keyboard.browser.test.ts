import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { renderDigest } from '../core/delivery/email/digest';
import { createUnsubscribeToken } from '../db/unsubscribe-tokens';
import { openPage, shot, unexpectedErrors } from '../dev/harness/browser';
import { appFetch } from './support/billing';
import { seriousViolations } from './support/axe';
import { browserSuite, openSignedInHome } from './support/browser-suite';
import { seededEvent, seedRuns } from './support/seed-runs';

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}` : '';
  });

describe('keyboard, focus, warnings and accessibility (Chromium)', () => {
  const suite = browserSuite({ env: { WEBHOOK_ALLOW: '127.0.0.1' } });

  it('moves focus to the question after sign-in, into and out of the panels; Escape closes Set Timer and the delete confirmation', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    await page.getByRole('button', { name: 'Back' }).click();
    const home = page.locator('[data-view="home"]');
    await home.getByRole('heading', { name: 'Login with Google' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await home.getByRole('button', { name: 'Sign in with Google' }).click();
    await page
      .getByRole('dialog', { name: 'Choose an account' })
      .getByRole('button', { name: /Ada Lovelace/ })
      .click();
    const question = home.getByLabel('Your Question');
    await question.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'ques');
    await page.keyboard.type('AI meetups in Berlin');
    expect(await question.inputValue()).toBe('AI meetups in Berlin');
    expect(await seriousViolations(page)).toEqual([]);

    // Set Timer: focus goes to the panel's first field, "Describe it"; Escape closes it and gives focus back to
    // its button.
    await home.getByRole('button', { name: 'Set Timer' }).click();
    const setTimer = page.getByRole('region', { name: 'Set Timer' });
    await setTimer.waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('.timer-form') != null);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await setTimer.getByLabel('Describe it').getAttribute('id'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await setTimer.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('button:Set Timer');

    // Saved: the confirmation keeps the spec's text with the time as typed.
    await page.keyboard.press('Enter');
    await setTimer.getByLabel('Time').fill('07:05');
    await setTimer.getByRole('button', { name: 'Save Timer' }).click();
    await page.getByRole('status').filter({ hasText: '✅ Timer saved: daily at 07:05' }).waitFor();
    expect(await focused(page)).toBe('button:Set Timer');

    // Manage Timers: focus to its heading; the delete confirmation closes on Escape with focus back on Delete.
    await home.getByRole('button', { name: 'Manage Timers' }).click();
    const timers = page.getByRole('region', { name: 'Your Timers' });
    await timers.getByRole('listitem').first().waitFor();
    expect(await focused(page)).toBe('h3:Your Timers');
    const row = timers.getByRole('listitem').first();
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('group', { name: 'Delete this timer?' }).waitFor();
    expect(await focused(page)).toBe('button:Keep');
    await page.keyboard.press('Escape');
    await row.getByRole('group', { name: 'Delete this timer?' }).waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('button:Delete');
    // The row is still there, Manage Timers still open.
    expect(await timers.getByRole('listitem').count()).toBe(1);
    // Back hands focus to Manage Timers.
    await timers.getByRole('button', { name: 'Back' }).click();
    expect(await focused(page)).toBe('button:Manage Timers');
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('warns on the home view about a failed payment and few searches, and clears a stale webhook error as the field changes', async () => {
    const { page, errors, user, cookie } = await openSignedInHome(suite, { locale: 'en-GB' });
    const sql = suite.stack.db.sql;
    await sql`update accounts set tier = 'plus', status = 'payment failed', searches_used = 49 where user_id = ${user.id}`;
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    await page.getByRole('button', { name: 'Back' }).click();
    const home = page.locator('[data-view="home"]');
    const banner = home.getByRole('alert').filter({ hasText: 'Your payment failed' });
    await banner.waitFor();
    expect(await banner.locator('p').textContent()).toBe('⚠️ Your payment failed. Please update your billing info to keep using Plus.');
    expect(await banner.getByRole('button', { name: 'Update billing info' }).count()).toBe(1);
    const few = home.getByRole('status').filter({ hasText: 'search left' });
    expect(await few.locator('p').textContent()).toMatch(
      /^Only 1 search left\. They renew on [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}\.$/,
    );
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `home-warnings-${width}`);
    }
    expect(await seriousViolations(page)).toEqual([]);

    // No searches left: said before a search is refused, with the way to more.
    await sql`update accounts set status = 'active', searches_used = 50 where user_id = ${user.id}`;
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await home.getByRole('button', { name: 'Search Events' }).click();
    await home.getByText('You have no searches left.', { exact: false }).waitFor();
    await home.locator('.banner').getByRole('button', { name: 'See plans' }).click();
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    // Your data: two actions side by side, the export a button-like link without an underline.
    const exportLink = page.getByRole('link', { name: 'Export my data (JSON)' });
    expect(await exportLink.evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('none');
    const [exp, del] = [await exportLink.boundingBox(), await page.getByRole('button', { name: 'Delete my account' }).boundingBox()];
    expect(Math.abs(exp!.y - del!.y)).toBeLessThan(2);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back' }).click();

    // A refused webhook address: the error goes once the address is edited.
    const res = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({ scheduleType: 'daily', time: '09:00', weekday: '', ques: 'Hooks', web: '', timezone: 'UTC' }),
    });
    expect(res.status).toBe(200);
    await home.getByRole('button', { name: 'Manage Timers' }).click();
    const row = page.getByRole('region', { name: 'Your Timers' }).locator('.timer-row').first();
    await row.getByText('Notifications:').click();
    const webhook = row.getByLabel('Webhook URL');
    await webhook.fill('http://10.0.0.1/hook');
    await row.getByRole('button', { name: 'Save webhook' }).click();
    const refused = row.getByRole('alert').filter({ hasText: 'private or local network' });
    await refused.waitFor();
    await webhook.press('End');
    await webhook.press('Backspace');
    expect(await webhook.inputValue()).toBe('http://10.0.0.1/hoo');
    await refused.waitFor({ state: 'detached' });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('brands the unsubscribe page with a way back, and shows the digest email at 320, 390 and 1280 px', async () => {
    const { cookie } = await openSignedInHome(suite);
    const res = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({ scheduleType: 'daily', time: '09:00', weekday: '', ques: 'AI meetups in Berlin', web: '', timezone: 'UTC' }),
    });
    const timerId = ((await res.json()) as { id: number }).id;
    await seedRuns(suite.stack.db.sql, timerId, [{ hoursAgo: 1, events: [seededEvent('Python Berlin Meetup', 10)] }]);
    const token = await createUnsubscribeToken(suite.stack.db.sql, timerId);
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/unsubscribe/${token}`);
    await page.getByRole('heading', { name: 'Stop these emails?' }).waitFor();
    const brand = page.getByRole('link', { name: 'Event Finder', exact: true });
    expect(await brand.getAttribute('href')).toBe(suite.stack.config.appUrl);
    expect(await page.getByRole('link', { name: 'Back to Event Finder' }).getAttribute('href')).toBe(suite.stack.config.appUrl);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Event Finder' }).count()).toBe(1);
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 700 });
      await shot(page, `unsubscribe-${width}`);
    }
    expect(await seriousViolations(page)).toEqual([]);

    // The digest as a mail client shows it (its HTML part).
    const mail = renderDigest({
      question: 'AI meetups in Berlin',
      timezone: 'Europe/Berlin',
      events: [
        seededEvent('Python Berlin Meetup', 10),
        { ...seededEvent('Open Source AI Meetup', 21, { venue: 'c-base' }), new: false, status: 'moved' },
        { ...seededEvent('Vector Databases Workshop', 28, { venue: 'Factory Berlin' }), new: false, status: 'cancelled' },
      ],
      runsUrl: `${suite.stack.config.appUrl}/#timer-${timerId}`,
      unsubscribeUrl: `${suite.stack.config.appUrl}/unsubscribe/${token}`,
    });
    expect(mail.subject).toBe('1 new and 2 changed events: AI meetups in Berlin');
    await page.setContent(mail.html);
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 700 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `email-digest-${width}`);
    }
    expect(await page.getByRole('link', { name: 'Read this run’s answer and all runs of this timer' }).getAttribute('href')).toBe(
      `${suite.stack.config.appUrl}/#timer-${timerId}`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
