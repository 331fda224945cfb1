import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, openSignedInHome } from './support/browser-suite';

describe('timer panels in Chromium', () => {
  const suite = browserSuite();

  const signedInHome = () => openSignedInHome(suite);

  const response = (page: Page) => page.getByLabel('Response');

  async function saveTimer(page: Page, options: { weekly?: string; time: string }) {
    await page.getByRole('button', { name: 'Set Timer' }).click();
    const panel = page.getByRole('region', { name: 'Set Timer' });
    await panel.waitFor();
    // The Response area is hidden while the panel is open; Day of Week only appears for weekly.
    expect(await response(page).count()).toBe(0);
    expect(await panel.getByLabel('Schedule Type').inputValue()).toBe('daily');
    expect(await panel.getByLabel('Day of Week').count()).toBe(0);
    if (options.weekly) {
      await panel.getByLabel('Schedule Type').selectOption('weekly');
      expect(await panel.getByLabel('Day of Week').inputValue()).toBe('Monday');
      await panel.getByLabel('Day of Week').selectOption(options.weekly);
      await page.screenshot({ path: 'test-results/timers-set-timer.png' });
    }
    await panel.getByLabel('Time').fill(options.time);
    await panel.getByRole('button', { name: 'Save Timer' }).click();
    await response(page).waitFor();
  }

  it('creates a daily and a weekly timer, lists them, deletes both, and shows "No timers found."', async () => {
    const { page, errors } = await signedInHome();
    await page.getByLabel('Your Question').fill('AI conferences in Berlin');
    // A timer's website is resolved and checked when saved: the stand-in's site (allowed, on loopback), so the
    // test asks no real DNS.
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/berlin-ai.html`);

    await saveTimer(page, { time: '09:00' });
    expect(await response(page).inputValue()).toBe('✅ Timer saved: daily at 09:00');
    await saveTimer(page, { weekly: 'Friday', time: '18:30' });
    expect(await response(page).inputValue()).toBe('✅ Timer saved: weekly at 18:30 on Friday');

    // The browser's time zone name went along with each timer.
    const zones = await suite.stack.db.sql<{ timezone: string }[]>`select timezone from timers`;
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(zones.map((z) => z.timezone)).toEqual([browserZone, browserZone]);

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const list = page.getByRole('region', { name: 'Your Timers' });
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining('Every day at 09:00'),
      expect.stringContaining('Every Friday at 18:30'),
    ]);
    expect(await list.getByText('Next run:').count()).toBe(2);
    await page.setViewportSize({ width: 900, height: 900 });
    await page.screenshot({ path: 'test-results/timers-list.png', fullPage: true });

    await list.getByRole('button', { name: 'Delete' }).first().click();
    await page.waitForFunction(() => document.querySelectorAll('.timer-list li').length === 1);
    expect(await list.getByRole('listitem').innerText()).toContain('Every Friday at 18:30');
    await list.getByRole('button', { name: 'Delete' }).click();
    await list.getByText('No timers found.').waitFor();

    await list.getByRole('button', { name: 'Back' }).click();
    expect(await list.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the server sentence when a save is refused, and the latest result of a run', async () => {
    const { page, user } = await signedInHome();
    // An empty question is refused by the server; the page shows its text after 'Backend error: '.
    await saveTimer(page, { time: '07:15' });
    expect(await response(page).inputValue()).toBe('❌ Error saving timer: Backend error: Please type a question for the timer to repeat.');

    await page.getByLabel('Your Question').fill('Meetups in Lisbon');
    await page.getByRole('button', { name: 'Set Timer' }).click();
    const save = page.getByRole('button', { name: 'Save Timer' });
    // Two clicks in a row: the second is ignored while the first save is in flight.
    await save.evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await response(page).waitFor();
    const [timer] = await suite.stack.db.sql<{ id: string }[]>`select id from timers where user_id = ${user.id}`;
    expect((await suite.stack.db.sql`select 1 from timers where user_id = ${user.id}`).count).toBe(1);
    await suite.stack.db.sql`insert into timer_runs (timer_id, scheduled_for, status, answer, finished_at)
                       values (${timer!.id}, now() - interval '1 hour', 'succeeded', 'Lisbon JS Meetup, 12 June', now())`;

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const summary = page.getByText(/Latest result: Answered/);
    await summary.click();
    await page.getByText('Lisbon JS Meetup, 12 June').waitFor();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: 'test-results/timers-mobile.png', fullPage: true });
  });
  it('shows the result of a fire while Manage Timers stays open', async () => {
    const { page, user } = await signedInHome();
    // The page's clock is fake from here, so a day can pass in a moment.
    await page.clock.install();
    const saved = await page.evaluate(async () => {
      const body = { scheduleType: 'daily', time: '06:15', weekday: 'Monday', ques: 'Jazz nights in Porto', web: '', timezone: 'UTC' };
      const res = await fetch('/api/schedule', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return res.status;
    });
    expect(saved).toBe(200);
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    await page.getByText('Jazz nights in Porto').waitFor();
    expect(await page.getByText('No runs yet.').count()).toBe(1);

    const [timer] = await suite.stack.db.sql<{ id: string }[]>`select id from timers where user_id = ${user.id}`;
    await suite.stack.db.sql`insert into timer_runs (timer_id, scheduled_for, status, answer, finished_at)
                       values (${timer!.id}, now(), 'succeeded', 'Porto Jazz Club, every Thursday', now())`;
    await page.clock.fastForward('24:00:30');
    await page.getByText(/Latest result: Answered/).waitFor();
  });
});
