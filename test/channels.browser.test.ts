import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { seriousViolations } from './support/axe';
import { appFetch } from './support/billing';
import { browserSuite, openSignedInHome } from './support/browser-suite';
import { dailyTimer } from '../dev/harness/timer-input';

describe('a timer’s chat channels in Manage Timers (Chromium)', () => {
  const suite = browserSuite();
  const timersPanel = (page: Page) => page.getByRole('region', { name: 'Your Timers' });

  it('adds a Slack and an ntfy channel by keyboard, shows them masked, refuses a private address, says why one stopped, removes one', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite);
    page.setDefaultTimeout(8000);
    const made = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify(dailyTimer({ ques: 'AI meetups in Berlin' })),
    });
    const timerId = ((await made.json()) as { id: number }).id;
    const standins = suite.stack.standins.url;

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = timersPanel(page).locator('.timer-row').filter({ hasText: 'AI meetups in Berlin' });
    await row.getByText('Notifications: Email on').click();
    const channels = row.getByRole('group', { name: 'Slack, Discord, Teams and ntfy' });

    // A private address is refused with the server's sentence, and nothing is added.
    await channels.getByLabel('Address').fill('http://10.0.0.1/hook');
    await channels.getByRole('button', { name: 'Add Slack channel' }).click();
    await channels.getByRole('alert').filter({ hasText: 'points to a private or local network' }).waitFor();

    // A Teams address without its signature cannot work: refused with what to change in the workflow.
    await channels.getByLabel('Service').selectOption('teams');
    await channels.getByLabel('Address').fill(`${standins}/teams/workflows/browser/triggers/manual/paths/invoke?api-version=1`);
    await channels.getByRole('button', { name: 'Add Microsoft Teams channel' }).click();
    await channels.getByRole('alert').filter({ hasText: '“Who can trigger the flow?” to “Anyone”' }).waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `channels-teams-unsigned-${width}`);
    }
    await channels.getByLabel('Service').selectOption('slack');

    // By keyboard: the address, then Enter adds it.
    const slack = `${standins}/slack/services/T0/B0/browser`;
    await channels.getByLabel('Address').fill(slack);
    await channels.getByLabel('Address').press('Enter');
    await channels.getByRole('status').filter({ hasText: 'Slack channel added' }).waitFor();
    const list = channels.getByRole('list', { name: 'Channels of this timer' });
    await list.getByText(`${standins}/…wser`).waitFor();
    expect(await list.textContent()).not.toContain('/slack/services');

    await channels.getByLabel('Service').selectOption('ntfy');
    await channels.getByText('Paste an ntfy topic address').waitFor();
    await channels.getByLabel('Address').fill(`${standins}/ntfy/protected`);
    await channels.getByLabel('Access token (only for a protected topic)').fill('tk_standin');
    await channels.getByRole('button', { name: 'Add ntfy channel' }).click();
    await list.getByText('with access token').waitFor();
    await row.getByText('Notifications: Email on · 2 channels').waitFor();

    // A channel whose service said it is gone: said on the row, and in the list.
    const sql = suite.stack.db.sql;
    const notice =
      'Slack answered “no_service”: this incoming webhook no longer posts anywhere. We stopped posting to this Slack channel; remove it and add its new address in Manage Timers.';
    await sql`update timer_channels set stopped_at = now(), stopped_notice = ${notice} where timer_id = ${timerId} and kind = 'slack'`;
    // The list is read again when Manage Timers opens.
    await timersPanel(page).getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    await row.getByRole('status').filter({ hasText: notice }).first().waitFor();
    await row.getByText('Notifications: Email on · 2 channels').click();
    await list.getByText(`Stopped: ${notice}`).waitFor();

    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await channels.scrollIntoViewIfNeeded();
      await shot(page, `channels-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const card = await page.locator('.search').boundingBox();
      const box = await channels.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(card!.x + card!.width);
    }
    expect(await seriousViolations(page)).toEqual([]);

    await list.getByRole('button', { name: /^Remove Slack channel/ }).click();
    await channels.getByRole('status').filter({ hasText: 'Slack channel removed.' }).waitFor();
    await row.getByText('Notifications: Email on · 1 channel').waitFor();
    expect(await sql`select kind from timer_channels where timer_id = ${timerId}`).toEqual([{ kind: 'ntfy' }]);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('“… and post it to Slack” in Describe it asks for the Slack address, and the saved timer posts there', async () => {
    const { page, errors } = await openSignedInHome(suite, { viewport: { width: 390, height: 900 } });
    page.setDefaultTimeout(8000);
    await page.getByRole('button', { name: 'Set Timer' }).click();
    const panel = page.getByRole('region', { name: 'Set Timer' });
    await panel.getByLabel('Describe it').fill('every day at 9, robotics meetups in Hamburg, and post it to Slack');
    await panel.getByLabel('Describe it').press('Enter');
    await panel.getByText('You asked to post it to Slack: paste its address in the Slack address field').waitFor();
    expect(await page.getByLabel('Your Question').inputValue()).toBe('robotics meetups in Hamburg');
    const address = panel.getByLabel('Slack address');
    await address.fill(`${suite.stack.standins.url}/slack/services/T0/B0/described`);
    await shot(page, 'describe-channel-390');
    await panel.getByRole('button', { name: 'Save Timer' }).click();
    await page.locator('.search').getByRole('status').filter({ hasText: 'It also posts to Slack.' }).waitFor();
    const rows = await suite.stack.db.sql<{ kind: string; url: string }[]>`
      select c.kind, c.url from timer_channels c join timers t on t.id = c.timer_id where t.question = 'robotics meetups in Hamburg'`;
    expect(rows).toEqual([{ kind: 'slack', url: `${suite.stack.standins.url}/slack/services/T0/B0/described` }]);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
