import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { schedulerId } from '../core/timers/scheduler';
import { getTimer } from '../db/timers';
import { disableGoneWebhook } from '../db/webhook-gone';
import { seriousViolations } from './support/axe';
import { appFetch } from './support/billing';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { browserSuite, openSignedInHome } from './support/browser-suite';

describe('timer delivery controls in Manage Timers (Chromium)', () => {
  // Any loopback port may be a webhook here; no delivery is triggered, the address is only saved.
  const suite = browserSuite({ env: { WEBHOOK_ALLOW: '127.0.0.1' } });
  const timersPanel = (page: Page) => page.getByRole('region', { name: 'Your Timers' });

  async function createTimer(cookie: string, ques: string): Promise<number> {
    const res = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({ scheduleType: 'daily', time: '09:00', weekday: '', ques, web: '', timezone: 'Europe/Berlin' }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: number }).id;
  }

  it('turns email off, refuses a private webhook, saves a webhook, pauses and resumes, and shows an automatic pause', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite);
    const timerId = await createTimer(cookie, 'AI meetups in Berlin');
    const failing = await createTimer(cookie, 'A timer whose website keeps failing');
    const sql = suite.stack.db.sql;
    // The second timer paused itself after failed runs, and its last webhook failed.
    await sql`update timers set webhook_url = 'http://127.0.0.1:9/hook', paused_at = now(), consecutive_failures = 3,
                paused_reason = '3 runs in a row failed. Last error: The website answered with an error (HTTP 500). Check the question and the website, then resume.'
              where id = ${failing}`;
    const [run] = await sql<{ id: string }[]>`insert into timer_runs (timer_id, scheduled_for, status, error, finished_at)
      values (${failing}, now() - interval '1 hour', 'failed', 'HTTP 500', now()) returning id`;
    const [owner] = await sql<{ user_id: string }[]>`select user_id from timers where id = ${failing}`;
    await sql`insert into deliveries (timer_id, run_id, user_id, channel, kind, status, attempts, error)
              values (${failing}, ${run!.id}, ${owner!.user_id}, 'webhook', 'paused', 'failed', 1, 'The webhook at 127.0.0.1:9 answered HTTP 404.')`;

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const rows = timersPanel(page).locator('.timer-row');
    await rows.first().waitFor();
    const row = rows.filter({ hasText: 'AI meetups in Berlin' });
    const paused = rows.filter({ hasText: 'keeps failing' });

    // The automatically paused timer says why and offers Resume; its failed webhook shows.
    await paused
      .getByText('3 runs in a row failed. Last error: The website answered with an error (HTTP 500).', { exact: false })
      .waitFor();
    await paused.getByText('Notifications: Email on · webhook set').click();
    await paused.getByText(/Last webhook: Failed, .* \(The webhook at 127\.0\.0\.1:9 answered HTTP 404\.\)/).waitFor();

    await row.getByText('Notifications: Email on').click();
    const email = row.getByLabel('Email me when this timer finds new or changed events');
    expect(await email.isChecked()).toBe(true);
    // The box follows the saved setting, so it flips when the server has answered.
    await email.click();
    await row.getByRole('status').filter({ hasText: 'Emails turned off.' }).waitFor();
    expect((await getTimer(sql, timerId))!.email).toBe(false);

    const webhook = row.getByLabel('Webhook URL');
    await webhook.fill('http://10.0.0.1/hook');
    await row.getByRole('button', { name: 'Save webhook' }).click();
    await row.getByRole('alert').filter({ hasText: 'points to a private or local network' }).waitFor();
    expect((await getTimer(sql, timerId))!.webhookUrl).toBeNull();

    await webhook.fill('http://127.0.0.1:8999/hook');
    await row.getByRole('button', { name: 'Save webhook' }).click();
    await row.getByRole('status').filter({ hasText: 'Webhook saved.' }).waitFor();
    await row.getByText('Notifications: Email off · webhook set').waitFor();
    expect((await getTimer(sql, timerId))!.webhookUrl).toBe('http://127.0.0.1:8999/hook');

    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'delivery-controls-1280');
    await page.setViewportSize({ width: 390, height: 900 });
    await shot(page, 'delivery-controls-390');
    // On a phone nothing of the row runs past the card.
    const card = await page.locator('.search').boundingBox();
    for (const box of [await webhook.boundingBox(), await paused.locator('.timer-row__paused').boundingBox()]) {
      expect(box!.x + box!.width).toBeLessThanOrEqual(card!.x + card!.width);
    }

    await row.getByRole('button', { name: 'Pause timer' }).click();
    await row.getByText('You paused this timer; it does not run until you resume it.').waitFor();
    expect(await suite.stack.deps.timersQueue.getJobScheduler(schedulerId(timerId))).toBeFalsy();
    await row.getByRole('button', { name: 'Resume' }).click();
    await row.getByRole('status').filter({ hasText: 'Timer resumed.' }).waitFor();
    expect(await row.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    expect(await suite.stack.deps.timersQueue.getJobScheduler(schedulerId(timerId))).toBeTruthy();

    await paused.getByRole('button', { name: 'Resume' }).click();
    await paused.getByRole('status').filter({ hasText: 'Timer resumed.' }).waitFor();
    expect((await getTimer(sql, failing))!).toMatchObject({ paused: false, consecutiveFailures: 0 });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('shows why the server removed a webhook that answered 410 Gone, until a new address is saved', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite);
    const timerId = await createTimer(cookie, 'Webhook that went away');
    const sql = suite.stack.db.sql;
    await sql`update timers set webhook_url = 'http://127.0.0.1:8998/gone' where id = ${timerId}`;
    // What a delivery does when the receiver answers 410 (core/delivery/webhook-gone.ts), sentence written here.
    const notice =
      'The webhook at 127.0.0.1:8998 answered HTTP 410 Gone: it no longer exists, so we removed it from this timer. Set a new address in Manage Timers to get webhooks again.';
    expect(await disableGoneWebhook(sql, timerId, 'http://127.0.0.1:8998/gone', notice)).toBe(true);

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = timersPanel(page).locator('.timer-row').filter({ hasText: 'Webhook that went away' });
    // Shown on the row itself, without opening Notifications, and announced politely.
    const shown = row.getByRole('status').filter({ hasText: notice });
    await shown.waitFor();
    expect(await shown.isVisible()).toBe(true);
    await row.getByText('Notifications: Email on').waitFor();
    expect(await row.getByText('Notifications: Email on · webhook set').count()).toBe(0);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `webhook-gone-notice-${width}`);
      const card = await page.locator('.search').boundingBox();
      const box = await shown.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(card!.x + card!.width);
    }
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByText('Notifications: Email on').click();
    await row.getByLabel('Webhook URL').fill('http://127.0.0.1:8997/new');
    await row.getByRole('button', { name: 'Save webhook' }).click();
    await row.getByRole('status').filter({ hasText: 'Webhook saved.' }).waitFor();
    expect(await row.getByText(notice).count()).toBe(0);
    expect((await getTimer(sql, timerId))!).toMatchObject({ webhookUrl: 'http://127.0.0.1:8997/new', webhookGoneNotice: null });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('says when email is off on this server', async () => {
    const { page, cookie } = await openSignedInHome(suite);
    await createTimer(cookie, 'No email here');
    // As in production without SMTP_URL (the app reads the same config object).
    const mail = suite.stack.config.mail;
    const url = mail.url;
    mail.url = null;
    try {
      await page.getByRole('button', { name: 'Manage Timers' }).click();
      const row = timersPanel(page).locator('.timer-row').filter({ hasText: 'No email here' });
      await row.getByText('Notifications: Email off').click();
      await row.getByText('Email is off on this server, so no emails are sent. Webhooks still work.').waitFor();
      expect(await row.getByLabel('Email me when this timer finds new or changed events').isDisabled()).toBe(true);
      await shot(page, 'delivery-email-off');
    } finally {
      mail.url = url;
    }
  });
});
