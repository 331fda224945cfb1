import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { errorPage } from '../api/error-page';
import { openPage, shot, unexpectedErrors } from '../dev/harness/browser';
import { createSignedInUser } from '../dev/harness/users';
import { appFetch } from './support/billing';
import { browserSuite } from './support/browser-suite';
import { layoutFaults } from './support/layout-faults';
import { seededEvent, seedRuns } from './support/seed-runs';

const WIDTHS = [320, 390, 1280];

// Every screen of the page at a small phone, a phone and a laptop: nothing cut, wrapped where it should not be,
// or off the side (test/support/layout-faults.ts). Screenshots of each, with SCREENSHOT_DIR set, to look at.
describe('every screen at 320, 390 and 1280 px (Chromium)', () => {
  const suite = browserSuite();

  /** Each width in turn: the faults found, prefixed with the screen and width, and a screenshot. */
  async function look(page: Page, screen: string): Promise<string[]> {
    const found: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const fault of await layoutFaults(page)) found.push(`${screen} at ${width} px: ${fault}`);
      await shot(page, `screens-${screen}-${width}`);
    }
    return found;
  }

  const islands = (page: Page) => page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);

  it('signed out: the plans, the sign-in, and the error page', async () => {
    const { page, errors } = await openPage(suite.browser, `${suite.stack.url}/`);
    await islands(page);
    const faults = await look(page, 'plans-signed-out');
    await page.getByRole('button', { name: /^Choose the Plus plan/ }).click();
    await page.getByRole('heading', { name: 'Login with Google' }).waitFor();
    faults.push(...(await look(page, 'sign-in')));
    await page.setContent(errorPage('Temporarily unavailable', 'The database is not answering. Please try again in a minute.'));
    faults.push(...(await look(page, 'error-page')));
    expect(faults).toEqual([]);
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.context().close();
  });

  it('signed in: billing messages, the search and its response, Set Timer, Manage Timers with runs, tokens', async () => {
    const { user, token, cookie } = await createSignedInUser(suite.stack.db.sql);
    const { page, errors } = await openPage(suite.browser, 'about:blank', { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    await page.context().addCookies([{ name: 'ef_session', value: token, url: suite.stack.url }]);
    // A paid plan whose renewal failed, most of its searches used: every billing message at once.
    await suite.stack.db.sql`update accounts set tier = 'plus', status = 'payment failed', searches_used = 48 where user_id = ${user.id}`;
    await page.goto(`${suite.stack.url}/`);
    await islands(page);
    await page.getByRole('alert').filter({ hasText: 'Your payment failed' }).waitFor();
    const faults = await look(page, 'plans-billing-messages');

    await page.getByRole('button', { name: 'Go to search' }).click();
    await page.getByLabel('Your Question').waitFor();
    await page.getByText('Which events to show (optional)').click();
    await page.getByLabel('Attendance').waitFor();
    faults.push(...(await look(page, 'search')));
    await suite.stack.db.sql`update accounts set status = 'active', searches_used = 0 where user_id = ${user.id}`;

    await page.getByLabel('Your Question').fill('AI events in Berlin');
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/berlin-ai.html`);
    await page.getByRole('button', { name: 'Search Events' }).click();
    await page.waitForURL(/\?search=\d+$/);
    await page.getByText('Finding the events in this answer…').waitFor({ state: 'detached' });
    await page.locator('[data-view="home"] .event-card').first().waitFor();
    faults.push(...(await look(page, 'response')));

    await page.getByRole('button', { name: 'Set Timer' }).click();
    const panel = page.getByRole('region', { name: 'Set Timer' });
    await panel.getByLabel('Describe it').waitFor();
    faults.push(...(await look(page, 'set-timer')));
    await panel.getByLabel('Describe it').fill('every Friday at 8 pm, AI meetups within 20 km of Berlin, in person, no crypto');
    await panel.getByLabel('Describe it').press('Enter');
    await panel.getByRole('status').filter({ hasText: 'Filled in from your sentence' }).waitFor();
    faults.push(...(await look(page, 'set-timer-described')));
    await panel.getByRole('button', { name: 'Cancel' }).click();

    // Two timers with runs; one of them running now, so its Run now reads "Running…".
    const ids: number[] = [];
    for (const ques of ['AI meetups in Berlin', 'Data engineering conferences and meetups in New York City']) {
      const res = await appFetch(suite.stack, cookie, '/api/schedule', {
        method: 'POST',
        body: JSON.stringify({ scheduleType: 'daily', time: '09:00', weekday: '', ques, web: '', timezone: 'Europe/Berlin' }),
      });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { id: number }).id);
    }
    for (const id of ids) {
      await seedRuns(suite.stack.db.sql, id, [
        {
          hoursAgo: 48,
          events: [seededEvent('Data Engineering Night', 14, { venue: 'Kulturbrauerei, Schönhauser Allee 36, 10435 Berlin' })],
        },
        { hoursAgo: 24, status: 'failed', error: 'The website did not answer within 20 seconds.' },
        { hoursAgo: 1, events: [seededEvent('Open Source AI Meetup', 21, { venue: 'c-base' }), seededEvent('Robotics Demo Day', 35)] },
      ]);
    }
    await suite.stack.db.sql`insert into timer_runs (timer_id, scheduled_for, status) values (${ids[0]!}, now(), 'running')`;
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const rows = page.getByRole('region', { name: 'Your Timers' }).locator('.timer-row');
    await rows.nth(1).waitFor();
    for (const row of await rows.all()) {
      await row.getByRole('button', { name: 'Show runs' }).click();
      await row.locator('.timer-run--latest').waitFor();
    }
    await rows.first().getByRole('button', { name: 'Running…' }).waitFor();
    // The first timer with everything open: its feeds, filters, notifications, and preview.
    for (const summary of ['Calendar and feed', /^Filters:/, /^Notifications:/, 'Preview and test']) {
      await rows.first().locator('summary', { hasText: summary }).click();
    }
    await rows.first().getByLabel('Attendance').waitFor();
    await rows.first().getByRole('button', { name: 'Copy Atom feed address' }).waitFor();
    await rows.first().frameLocator('iframe').getByRole('heading').first().waitFor();
    // Run now's row: one line from 390 px, "Running…" included; at 320 px the same lines for both labels, each
    // filled edge to edge, so a changed label moves nothing.
    const actionRows = async () =>
      page.locator('.timer-runs__actions').evaluateAll((rows) =>
        rows.map((row) => {
          const edge = Math.round(row.getBoundingClientRect().right);
          const buttons = [...row.children].map((b) => b.getBoundingClientRect());
          const tops = [...new Set(buttons.map((b) => Math.round(b.top)))];
          const lineEnds = tops.map((t) => Math.max(...buttons.filter((b) => Math.round(b.top) === t).map((b) => Math.round(b.right))));
          return { lines: tops.length, filled: lineEnds.every((end) => Math.abs(end - edge) <= 1) };
        }),
      );
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const [running, idle] = await actionRows();
      expect(running!.lines, `Running… at ${width} px`).toBe(idle!.lines);
      if (width >= 390) expect(idle!.lines, `Run now at ${width} px`).toBe(1);
      else expect([running!.filled, idle!.filled], `lines filled at ${width} px`).toEqual([true, true]);
    }
    faults.push(...(await look(page, 'manage-timers')));
    // Each chat service's address field, on the narrowest phone.
    await page.setViewportSize({ width: 320, height: 900 });
    const service = rows.first().getByLabel('Service');
    for (const kind of await service.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))) {
      await service.selectOption(kind);
      for (const fault of await layoutFaults(page)) faults.push(`manage-timers with ${kind} at 320 px: ${fault}`);
    }

    await page.getByRole('button', { name: 'Subscription' }).click();
    await page.getByText('API tokens').click();
    await page.getByLabel('Token name').fill('Calendar agent on my laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByLabel(/Your new token/).waitFor();
    faults.push(...(await look(page, 'account-tokens')));

    expect(faults).toEqual([]);
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.context().close();
  }, 120_000);
});
