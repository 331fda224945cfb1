import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { fireScheduled } from './support/runs';
import { seriousViolations } from './support/axe';
import { appFetch } from './support/billing';
import { browserSuite, openSignedInHome } from './support/browser-suite';

// The receiver's port is known before the stack starts, so WEBHOOK_ALLOW can name it.
const answers: { status: number; body: string }[] = [];
const receiver: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const answer = answers.shift() ?? { status: 200, body: 'ok' };
    res.statusCode = answer.status;
    res.end(answer.body);
  });
});
const port = await new Promise<number>((resolve) =>
  receiver.listen(0, '127.0.0.1', () => resolve((receiver.address() as AddressInfo).port)),
);

describe('Preview and test in Manage Timers (Chromium)', () => {
  const suite = browserSuite({ env: { WEBHOOK_ALLOW: `127.0.0.1:${port}` } });
  const hookUrl = `http://127.0.0.1:${port}/hook`;
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const timersPanel = (page: Page) => page.getByRole('region', { name: 'Your Timers' });

  async function createTimer(cookie: string, ques: string, web = ''): Promise<number> {
    const res = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({ scheduleType: 'daily', time: '09:00', weekday: '', ques, web, timezone: 'Europe/Berlin' }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: number }).id;
  }

  async function fire(timerId: number) {
    const { stack } = suite;
    expect(await fireScheduled(stack, timerId)).toBe('succeeded');
  }

  it('shows the next email and webhook body from the last run, and sends tests with their results in words', async () => {
    const { page, errors, cookie, user } = await openSignedInHome(suite);
    const timerId = await createTimer(cookie, 'AI meetups previewed', `${suite.stack.standins.url}/sites/changing/preview-browser.html`);
    const set = await appFetch(suite.stack, cookie, `/api/timers/${timerId}`, {
      method: 'PATCH',
      body: JSON.stringify({ webhook_url: hookUrl }),
    });
    expect(set.status).toBe(200);
    await fire(timerId);

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = timersPanel(page).locator('.timer-row').filter({ hasText: 'AI meetups previewed' });
    await row.getByText('Preview and test').click();
    await row.getByText(/^Built from the run of .*: its new and changed events, as its digest listed them\.$/).waitFor();

    // The email as sent: its subject, and its HTML in a sandboxed frame (no scripts, no access to the page).
    const email = row.getByRole('region', { name: 'Email' });
    const subject = /^\d+ new events?: AI meetups previewed$/;
    await email.getByText(subject).waitFor();
    await email.getByText(user.email).waitFor();
    const frame = email.locator('iframe');
    expect(await frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    await email.frameLocator('iframe').getByRole('heading', { name: subject }).waitFor();
    // Its links open in a new tab, as a mail client opens them; the preview stays where it was.
    const runLink = email.frameLocator('iframe').getByRole('link', { name: 'Read this run’s answer and all runs of this timer' });
    const runsUrl = await runLink.getAttribute('href');
    expect(runsUrl).toMatch(new RegExp(`^${suite.stack.url}/#timer-${timerId}-run-\\d+$`));
    const [opened] = await Promise.all([page.context().waitForEvent('page'), runLink.click()]);
    await opened.waitForLoadState();
    expect(opened.url()).toBe(runsUrl);
    await opened.close();
    expect((await (await frame.elementHandle())?.contentFrame())?.url()).toBe('about:srcdoc');
    await email.frameLocator('iframe').getByRole('heading', { name: subject }).waitFor();
    // The webhook's chat summary as posted.
    const webhook = row.getByRole('region', { name: 'Webhook' });
    await webhook.getByText(/^Event Finder: \d+ new events? for "AI meetups previewed"/).waitFor();
    await webhook.getByText(hookUrl).waitFor();

    for (const width of [1280, 390, 320]) {
      await page.setViewportSize({ width, height: 900 });
      await email.frameLocator('iframe').getByRole('heading', { name: subject }).waitFor();
      await shot(page, `timer-preview-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    expect(await seriousViolations(page)).toEqual([]);

    // The JSON body as posted, opened.
    await webhook.getByText('The JSON body').click();
    await webhook.getByText(/"kind": "digest"/).waitFor();
    // A preview is the real digest: only a test carries "test": true.
    expect(await webhook.getByText('"test": true').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await webhook.getByText('The JSON body').click();

    await email.getByRole('button', { name: 'Send a test email' }).click();
    await email
      .getByRole('status')
      .filter({ hasText: `Delivered: the mail server accepted the test for ${user.email}.` })
      .waitFor();
    const mail = await suite.stack.standins.smtp.waitFor((m) => m.envelope.to.includes(user.email) && m.subject.startsWith('[Test] '));
    expect(mail.subject).toMatch(/^\[Test\] \d+ new events?: AI meetups previewed$/);

    answers.push({ status: 500, body: 'receiver is down for maintenance' });
    await webhook.getByRole('button', { name: 'Send a test to the webhook' }).click();
    await webhook
      .getByRole('alert')
      .filter({ hasText: `The webhook at 127.0.0.1:${port} answered HTTP 500: "receiver is down for maintenance".` })
      .waitFor();
    await webhook.getByRole('button', { name: 'Send a test to the webhook' }).click();
    await webhook
      .getByRole('status')
      .filter({ hasText: `Delivered: the webhook at 127.0.0.1:${port} answered HTTP 200.` })
      .waitFor();
    await page.setViewportSize({ width: 390, height: 900 });
    await shot(page, 'timer-preview-results-390');
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('says there is nothing to preview before the first run, and why a destination cannot take a test', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite);
    await createTimer(cookie, 'A timer that never ran');
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = timersPanel(page).locator('.timer-row').filter({ hasText: 'A timer that never ran' });
    // Opened from the keyboard.
    await row.getByText('Preview and test').focus();
    await page.keyboard.press('Enter');
    await row.getByText('No run yet: the preview appears after the first run.').waitFor();
    await row.getByText('This timer has no webhook address. Save one under Notifications to send a test.').waitFor();
    expect(await row.locator('iframe').count()).toBe(0);
    await row.getByRole('button', { name: 'Send a test email' }).waitFor();
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
