import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appFetch } from './support/billing';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { browserSuite, openSignedInHome } from './support/browser-suite';

describe('timer panels in Chromium', () => {
  const suite = browserSuite();

  const signedInHome = (locale = 'en-GB') => openSignedInHome(suite, { locale });

  const response = (page: Page) => page.getByRole('region', { name: 'Response' });
  const saved = (page: Page) => page.locator('.search').getByRole('status').filter({ hasText: 'Timer saved' });
  const setTimerPanel = (page: Page) => page.getByRole('region', { name: 'Set Timer' });
  const timersPanel = (page: Page) => page.getByRole('region', { name: 'Your Timers' });

  async function fillTimer(page: Page, options: { weekly?: string; time: string }) {
    await page.getByRole('button', { name: 'Set Timer' }).click();
    const panel = setTimerPanel(page);
    await panel.waitFor();
    // The Response area is hidden while the panel is open; Day of Week only appears for weekly.
    expect(await response(page).count()).toBe(0);
    expect(await panel.getByLabel('Schedule Type').inputValue()).toBe('daily');
    expect(await panel.getByLabel('Day of Week').count()).toBe(0);
    if (options.weekly) {
      await panel.getByLabel('Schedule Type').selectOption('weekly');
      expect(await panel.getByLabel('Day of Week').inputValue()).toBe('Monday');
      await panel.getByLabel('Day of Week').selectOption(options.weekly);
    }
    await panel.getByLabel('Time').fill(options.time);
    return panel;
  }

  async function saveTimer(page: Page, options: { weekly?: string; time: string }) {
    const panel = await fillTimer(page, options);
    await panel.getByRole('button', { name: 'Save Timer' }).click();
    await saved(page).waitFor();
    expect(await panel.count()).toBe(0);
    return saved(page).textContent();
  }

  /** Delete with its confirmation step. */
  async function deleteRow(page: Page, index: number) {
    const row = timersPanel(page).getByRole('listitem').nth(index);
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('group', { name: 'Delete this timer?' }).getByRole('button', { name: 'Yes, delete' }).click();
  }

  it('creates a daily and a weekly timer, lists them, deletes both after confirming, and shows "No timers found."', async () => {
    const { page, errors } = await signedInHome();
    await page.getByLabel('Your Question').fill('AI conferences in Berlin');
    // A timer's website is resolved and checked when saved: the stand-in's site (allowed, on loopback), so the
    // test asks no real DNS.
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/berlin-ai.html`);

    expect(await saveTimer(page, { time: '09:00' })).toBe('✅ Timer saved: daily at 09:00');
    expect(await saveTimer(page, { weekly: 'Friday', time: '18:30' })).toBe('✅ Timer saved: weekly at 18:30 on Friday');

    // The browser's time zone name went along with each timer.
    const zones = await suite.stack.db.sql<{ timezone: string }[]>`select timezone from timers`;
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(zones.map((z) => z.timezone)).toEqual([browserZone, browserZone]);

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const list = timersPanel(page);
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining('Every day at 09:00'),
      expect.stringContaining('Every Friday at 18:30'),
    ]);
    expect(await list.getByText('Next run:').count()).toBe(2);
    await shot(page, 'timers-list-1280');

    // Delete asks first; Keep leaves the timer and gives focus back to its Delete button.
    const first = list.getByRole('listitem').first();
    await first.getByRole('button', { name: 'Delete' }).click();
    const confirm = first.getByRole('group', { name: 'Delete this timer?' });
    await confirm.waitFor();
    expect(await confirm.getByRole('button', { name: 'Keep' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await shot(page, 'timers-confirm-delete');
    await confirm.getByRole('button', { name: 'Keep' }).click();
    expect(await first.getByRole('button', { name: 'Delete' }).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await list.getByRole('listitem').count()).toBe(2);

    await deleteRow(page, 0);
    await page.waitForFunction(() => document.querySelectorAll('.timer-list li').length === 1);
    expect(await list.getByRole('listitem').textContent()).toContain('Every Friday at 18:30');
    await deleteRow(page, 0);
    await list.getByText('No timers found.').waitFor();
    expect((await suite.stack.db.sql`select 1 from timers where deleted_at is null`).count).toBe(0);

    await list.getByRole('button', { name: 'Back' }).click();
    expect(await list.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("writes every time in the user's locale, one style: list, next run and latest result; the confirmation as typed", async () => {
    const { page, user, errors } = await signedInHome('en-US');
    await page.getByLabel('Your Question').fill('Jazz nights in Porto');
    // The spec's sentence with the time as it was typed.
    expect(await saveTimer(page, { weekly: 'Friday', time: '18:30' })).toBe('✅ Timer saved: weekly at 18:30 on Friday');
    const [timer] = await suite.stack.db.sql<{ id: string }[]>`select id from timers where user_id = ${user.id}`;
    await suite.stack.db.sql`insert into timer_runs (timer_id, scheduled_for, status, answer, finished_at)
                       values (${timer!.id}, '2026-11-20T18:30:00Z', 'succeeded', 'Porto Jazz Club, every Thursday', '2026-11-20T18:30:05Z')`;
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = timersPanel(page).getByRole('listitem');
    await row.waitFor();
    expect(await row.locator('.timer-row__when').textContent()).toBe('Every Friday at 6:30 PM');
    const times = await row.locator('time').allInnerTexts();
    expect(times).toHaveLength(2);
    // "Fri 27 Nov 2026, 6:30 PM": the one style's order (docs/decisions/time.md) with the clock of the schedule, never "18:30"
    // next to "6:30 PM".
    for (const t of times) expect(t).toMatch(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [AP]M$/);
    expect(times[0]).toMatch(/^Fri .* 6:30 PM$/);
    expect(errors).toEqual([]);
  });

  it('keeps what was typed when a save is refused, and ignores a second click while saving', async () => {
    const { page, user, errors } = await signedInHome();
    // An empty question is refused by the server; the panel stays open with the server's sentence.
    const panel = await fillTimer(page, { weekly: 'Friday', time: '07:15' });
    await panel.getByRole('button', { name: 'Save Timer' }).click();
    const alert = panel.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('❌ Error saving timer: Backend error: Please type a question for the timer to repeat.');
    expect(await panel.getByLabel('Schedule Type').inputValue()).toBe('weekly');
    expect(await panel.getByLabel('Day of Week').inputValue()).toBe('Friday');
    expect(await panel.getByLabel('Time').inputValue()).toBe('07:15');
    await shot(page, 'timers-save-refused');

    await page.getByLabel('Your Question').fill('Meetups in Lisbon');
    const save = panel.getByRole('button', { name: 'Save Timer' });
    // Two clicks in a row: the second is ignored while the first save is in flight.
    await save.evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    expect(await saved(page).textContent()).toBe('✅ Timer saved: weekly at 07:15 on Friday');
    expect((await suite.stack.db.sql`select 1 from timers where user_id = ${user.id}`).count).toBe(1);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('shows a failed load inside the panel with Retry, and drops a timer deleted in another tab', async () => {
    const { page, user, cookie, errors } = await signedInHome();
    await page.getByLabel('Your Question').fill('Meetups in Lisbon');
    await saveTimer(page, { time: '07:15' });
    await saveTimer(page, { time: '08:15' });

    // A real failure: the server cannot read the table for a moment.
    await suite.stack.db.sql`alter table timers rename to timers_away`;
    try {
      await page.getByRole('button', { name: 'Manage Timers' }).click();
      const alert = timersPanel(page).getByRole('alert');
      await alert.waitFor();
      expect(await alert.locator('.alert__text').textContent()).toBe('❌ Error fetching timers: Failed to fetch timers');
      expect(await timersPanel(page).getByText('Loading timers…').count()).toBe(0);
      await shot(page, 'timers-load-failed');
    } finally {
      await suite.stack.db.sql`alter table timers_away rename to timers`;
    }
    await timersPanel(page).getByRole('button', { name: 'Retry' }).click();
    await timersPanel(page).getByRole('listitem').nth(1).waitFor();
    expect(await timersPanel(page).getByRole('alert').count()).toBe(0);

    // The other tab deletes the first timer; here its Delete finds it gone, and the row goes too.
    const [gone] = await suite.stack.db.sql<{ id: string }[]>`select id from timers where user_id = ${user.id} order by time limit 1`;
    const other = await appFetch(suite.stack, cookie, '/api/timer/delete', {
      method: 'POST',
      body: JSON.stringify({ timer_id: Number(gone!.id) }),
    });
    expect(other.status).toBe(200);
    await deleteRow(page, 0);
    await page.waitForFunction(() => document.querySelectorAll('.timer-list li').length === 1);
    expect(await timersPanel(page).getByRole('listitem').textContent()).toContain('Every day at 08:15');
    expect(await timersPanel(page).getByRole('alert').count()).toBe(0);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('gives a timer row the whole width on a phone, with its latest result', async () => {
    const { page, user } = await signedInHome();
    await page.getByLabel('Your Question').fill('Meetups in Lisbon, Porto and anywhere else along the coast of Portugal this summer');
    await saveTimer(page, { time: '07:15' });
    const [timer] = await suite.stack.db.sql<{ id: string }[]>`select id from timers where user_id = ${user.id}`;
    await suite.stack.db.sql`insert into timer_runs (timer_id, scheduled_for, status, answer, finished_at)
                       values (${timer!.id}, now() - interval '1 hour', 'succeeded', 'Lisbon JS Meetup, 12 June', now())`;
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    await page.getByText(/Latest result: Answered/).click();
    await page.getByText('Lisbon JS Meetup, 12 June').waitFor();
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const question = await timersPanel(page).locator('.timer-row__question').boundingBox();
      const panel = await page.locator('.search').boundingBox();
      // The question runs across the search card; only the card's own padding is taken from it.
      expect(question!.width).toBeGreaterThan(panel!.width - 40);
      await shot(page, `timers-list-${width}`);
    }
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
