import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { browserSuite, openSignedInHome } from './support/browser-suite';

/** A timer in plain words (docs/decisions/timers-in-words-and-filters.md): describe → check → save, by keyboard only, in Chromium. */
describe('Set Timer: Describe it', () => {
  const suite = browserSuite();

  const focusedName = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return '';
      const label = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null;
      return (label ?? el.textContent ?? '').trim();
    });
  /** Presses Tab until the element named `name` has focus (at most 30 times), as a keyboard user would. */
  async function tabTo(page: Page, name: string) {
    for (let i = 0; i < 30; i++) {
      if ((await focusedName(page)) === name) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached "${name}" (last: "${await focusedName(page)}")`);
  }

  it('a sentence fills the ordinary form and the question; checked and saved with the keyboard, with its filters', async () => {
    const { page, errors } = await openSignedInHome(suite, { viewport: { width: 1280, height: 900 } });
    await page.getByRole('button', { name: 'Set Timer' }).focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Set Timer' });
    await panel.waitFor();
    // Describe it loads with the panel (its own chunk); a person sees it appear before tabbing to it.
    await panel.getByLabel('Describe it').waitFor();

    await tabTo(page, 'Describe it');
    await page.keyboard.type('twice a week, AI meetups');
    await page.keyboard.press('Enter');
    await panel.getByRole('alert').filter({ hasText: 'cannot be one timer' }).waitFor();
    expect(await panel.getByLabel('Schedule Type').inputValue()).toBe('daily');

    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('every Friday at 8 pm, AI meetups within 20 km of Berlin, in person, no crypto');
    await page.keyboard.press('Enter');
    await panel.getByRole('status').filter({ hasText: 'Filled in from your sentence' }).waitFor();
    // Focus moves to the form's first field, to check it from the top.
    expect(await focusedName(page)).toBe('Schedule Type');
    expect(await panel.getByLabel('Schedule Type').inputValue()).toBe('weekly');
    expect(await panel.getByLabel('Day of Week').inputValue()).toBe('Friday');
    expect(await panel.getByLabel('Time', { exact: true }).inputValue()).toBe('20:00');
    expect(await page.getByLabel('Your Question').inputValue()).toBe('AI meetups within 20 km of Berlin');
    expect(await panel.getByLabel('Near (city)').inputValue()).toBe('Berlin');
    expect(await panel.getByLabel('Within (km)').inputValue()).toBe('20');
    expect(await panel.getByLabel('Attendance').inputValue()).toBe('in_person');
    expect(await panel.getByLabel('Leave out words').inputValue()).toBe('crypto');
    await shot(page, 'describe-timer-1280');
    await page.setViewportSize({ width: 390, height: 900 });
    await shot(page, 'describe-timer-390');

    // Nothing is saved until Save Timer.
    const before = await suite.stack.db.sql`select 1 from timers`;
    expect(before).toHaveLength(0);
    await tabTo(page, 'Save Timer');
    await page.keyboard.press('Enter');
    await page.locator('.search').getByRole('status').filter({ hasText: 'Timer saved' }).waitFor();
    expect(await page.locator('.search').getByRole('status').filter({ hasText: 'Timer saved' }).textContent()).toBe(
      '✅ Timer saved: weekly at 20:00 on Friday',
    );
    const [timer] = await suite.stack.db.sql<{ question: string; weekday: string; filters: unknown }[]>`
      select question, weekday, filters from timers`;
    expect(timer).toMatchObject({
      question: 'AI meetups within 20 km of Berlin',
      weekday: 'Friday',
      filters: { place: { name: 'Berlin', radius_km: 20 }, attendance: 'in_person', exclude: ['crypto'], window: null },
    });

    // The saved filters show in Manage Timers, and change there.
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const filters = page.getByText('Filters: within 20 km of Berlin · in person · not: crypto');
    await filters.click();
    const row = page.locator('.timer-filters-editor');
    await row.getByLabel('Within (km)').fill('30');
    await row.getByRole('button', { name: 'Save filters' }).click();
    await page.getByText('Filters saved: the next run keeps only matching events.').waitFor();
    await page.getByText('Filters: within 30 km of Berlin · in person · not: crypto').waitFor();
    await shot(page, 'timer-filters-editor-390');
    const [edited] = await suite.stack.db.sql<{ filters: { place: { radius_km: number } } }[]>`select filters from timers`;
    expect(edited!.filters.place.radius_km).toBe(30);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('each sentence starts from an empty form; one that cannot be read fills nothing and says what', async () => {
    const { page, errors } = await openSignedInHome(suite, { viewport: { width: 1280, height: 900 } });
    await page.getByRole('button', { name: 'Set Timer' }).click();
    const panel = page.getByRole('region', { name: 'Set Timer' });
    const sentence = panel.getByLabel('Describe it');
    const describe = async (words: string) => {
      await sentence.fill(words);
      await sentence.press('Enter');
    };
    const filled = panel.getByRole('status').filter({ hasText: 'Filled in from your sentence' });

    const site = `${suite.stack.standins.url}/sites/around-berlin.html`;
    await describe(`every Friday at 8 pm, jazz concerts in Hamburg ${site}`);
    await filled.waitFor();
    expect(await page.getByLabel('Website URL').inputValue()).toBe(site);
    expect(await panel.getByLabel('Time', { exact: true }).inputValue()).toBe('20:00');

    // No website, no time: neither is kept from the sentence before.
    await describe('every Monday, AI meetups in Berlin');
    await expect.poll(() => page.getByLabel('Your Question').inputValue()).toBe('AI meetups in Berlin');
    expect(await page.getByLabel('Website URL').inputValue()).toBe('');
    expect(await panel.getByLabel('Time', { exact: true }).inputValue()).toBe('');
    expect(await panel.getByLabel('Day of Week').inputValue()).toBe('Monday');
    expect(await panel.getByLabel('Near (city)').inputValue()).toBe('Berlin');

    await describe('every day at 25:99 rust meetups');
    await panel.getByRole('alert').filter({ hasText: '“25:99” is not a time of day.' }).waitFor();
    expect(await filled.count()).toBe(0);
    expect(await page.getByLabel('Your Question').inputValue()).toBe('AI meetups in Berlin');

    await describe('asdf qwerty');
    await panel.getByRole('alert').filter({ hasText: 'We could not read “asdf qwerty”, so nothing is filled in.' }).waitFor();
    expect(await filled.count()).toBe(0);
    expect(await page.getByLabel('Your Question').inputValue()).toBe('AI meetups in Berlin');
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
