import { describe, expect, it } from 'vitest';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { seriousViolations } from './support/axe';
import { appFetch } from './support/billing';
import { browserSuite, openSignedInHome } from './support/browser-suite';

describe('editing a timer in Manage Timers (Chromium)', () => {
  const suite = browserSuite();

  it('Edit opens the Set Timer fields filled in, by keyboard; Save changes the row and keeps its runs', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    const made = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({
        scheduleType: 'daily',
        time: '09:00',
        weekday: '',
        ques: 'AI meetups in Berlin',
        web: '',
        timezone: 'Europe/Berlin',
      }),
    });
    const timerId = ((await made.json()) as { id: number }).id;

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = page.getByRole('region', { name: 'Your Timers' }).locator(`[data-timer-id="${timerId}"]`);
    await row.waitFor();
    expect(await row.locator('.timer-row__when').textContent()).toBe('Every day at 09:00');

    const edit = row.getByRole('button', { name: 'Edit' });
    await edit.focus();
    await page.keyboard.press('Enter');
    const form = row.getByRole('form', { name: 'Edit timer' });
    await form.waitFor();
    // Focus lands on the first field; every field carries what the timer has.
    expect(await form.getByLabel('Schedule Type').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await form.getByLabel('Schedule Type').inputValue()).toBe('daily');
    expect(await form.getByLabel('Time').inputValue()).toBe('09:00');
    expect(await form.getByLabel('Your Question').inputValue()).toBe('AI meetups in Berlin');
    expect(await form.getByLabel('Website URL').inputValue()).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `edit-timer-form-${width}`);
    }

    // Escape cancels and hands focus back to Edit, on the next frame (timer-row.tsx).
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => edit.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press('Enter');
    await form.getByLabel('Schedule Type').selectOption('weekly');
    await form.getByLabel('Day of Week').selectOption('Friday');
    await form.getByLabel('Time').fill('18:30');
    await form.getByLabel('Your Question').fill('ML evenings in Berlin');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await row.getByRole('status').filter({ hasText: '✅ Timer saved: weekly at 18:30 on Friday' }).waitFor();
    expect(await form.count()).toBe(0);
    expect(await row.locator('.timer-row__when').textContent()).toBe('Every Friday at 18:30');
    expect(await row.locator('.timer-row__question').textContent()).toBe('ML evenings in Berlin');
    await expect.poll(() => edit.evaluate((el) => el === document.activeElement)).toBe(true);
    // The same timer, changed in place.
    const [stored] = await suite.stack.db.sql<{ id: string; time: string; weekday: string }[]>`
      select id, time, weekday from timers where id = ${timerId}`;
    expect(stored).toEqual({ id: String(timerId), time: '18:30', weekday: 'Friday' });

    // A refused edit keeps the form open with what was typed and says why.
    await edit.click();
    await form.getByLabel('Website URL').fill('http://10.0.0.1/events');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByRole('alert').filter({ hasText: '❌ Error saving timer: The website address 10.0.0.1 points to a private' }).waitFor();
    expect(await form.getByLabel('Website URL').inputValue()).toBe('http://10.0.0.1/events');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'edit-timer-refused-1280');
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
