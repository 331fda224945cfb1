import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { fireScheduled } from './support/runs';
import { seriousViolations } from './support/axe';
import { appFetch } from './support/billing';
import { browserSuite, openSignedInHome } from './support/browser-suite';
import { dailyTimer } from '../dev/harness/timer-input';

describe('Preview and test of a timer’s channels in Manage Timers (Chromium)', () => {
  const suite = browserSuite();
  const timersPanel = (page: Page) => page.getByRole('region', { name: 'Your Timers' });

  async function fire(timerId: number) {
    const { stack } = suite;
    expect(await fireScheduled(stack, timerId)).toBe('succeeded');
  }

  it('shows each channel’s next message and sends a test to one, with the service’s answer in words', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite);
    page.setDefaultTimeout(8000);
    const standins = suite.stack.standins.url;
    const made = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify(dailyTimer({ ques: 'AI evenings on the phone', web: `${standins}/sites/many/3.ics` })),
    });
    const timerId = ((await made.json()) as { id: number }).id;
    const slack = `${standins}/slack/services/T0/B0/browser-preview`;
    const channels = [
      { kind: 'slack', url: slack },
      { kind: 'discord', url: `${standins}/discord/api/webhooks/1/gone` },
      {
        kind: 'teams',
        url: `${standins}/teams/workflows/browser-preview/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=preview`,
      },
      { kind: 'ntfy', url: `${standins}/ntfy/browser-preview` },
    ];
    for (const c of channels) {
      const res = await appFetch(suite.stack, cookie, `/api/timers/${timerId}/channels`, { method: 'POST', body: JSON.stringify(c) });
      expect(res.status).toBe(201);
    }
    await fire(timerId);

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = timersPanel(page).locator('.timer-row').filter({ hasText: 'AI evenings on the phone' });
    await row.getByText('Preview and test').click();
    const slackSection = row.getByRole('region', { name: `Slack · ${standins}/…view` });
    await slackSection.getByText('3 new events for “AI evenings on the phone”', { exact: true }).waitFor();
    const ntfySection = row.getByRole('region', { name: `ntfy · ${standins}/…view` });
    // ntfy's title arrives RFC 2047 encoded; the page shows its words, and the text a phone shows.
    await ntfySection.getByText('Event Finder: 3 new events for “AI evenings on the phone”', { exact: true }).waitFor();
    await ntfySection.getByText(/Applied AI Evening no\. 1/).waitFor();
    await row
      .getByRole('region', { name: /^Microsoft Teams · / })
      .getByText('3 new events for “AI evenings on the phone”', { exact: true })
      .waitFor();

    // The body as posted, opened by keyboard.
    await slackSection.getByText('The JSON body as posted').focus();
    await page.keyboard.press('Enter');
    await slackSection.getByText(/"type": "header"/).waitFor();

    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await slackSection.scrollIntoViewIfNeeded();
      await shot(page, `channel-preview-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    expect(await seriousViolations(page)).toEqual([]);

    const before = suite.stack.standins.channels.posts.posts.length;
    await slackSection.getByRole('button', { name: 'Send a test to Slack' }).click();
    await slackSection
      .getByRole('status')
      .filter({ hasText: `Delivered: Slack at ${new URL(standins).host} accepted the test.` })
      .waitFor();
    const posted = suite.stack.standins.channels.posts.posts.slice(before);
    expect(posted.map((p) => [p.service, p.status, (p.body as { text: string }).text])).toEqual([
      ['slack', 200, 'Test message — 3 new events for “AI evenings on the phone”'],
    ]);

    const discord = row.getByRole('region', { name: /^Discord · / });
    await discord.getByRole('button', { name: 'Send a test to Discord' }).click();
    await discord
      .getByRole('alert')
      .filter({
        hasText:
          'Discord answered “Unknown Webhook” (code 10015): this webhook was deleted. Remove this channel and add its new address in Manage Timers.',
      })
      .waitFor();
    await page.setViewportSize({ width: 390, height: 900 });
    await discord.scrollIntoViewIfNeeded();
    await shot(page, 'channel-preview-results-390');
    // The test stopped nothing.
    expect(await suite.stack.db.sql`select id from timer_channels where timer_id = ${timerId} and stopped_at is not null`).toHaveLength(0);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
