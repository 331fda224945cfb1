import { describe, expect, it } from 'vitest';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { browserSuite, openSignedInHome } from './support/browser-suite';

/**
 * The sample meetup that says only in words how it repeats (dev/standins/repeat-in-words.ts): searched on its
 * page, it is one card that says how it repeats, whose .ics link carries the rule.
 */
describe('a meetup whose page says its repeat in words (Chromium)', () => {
  const suite = browserSuite();

  it('is one card saying "Repeats every second Tuesday", its .ics with the RRULE', async () => {
    const { page, errors } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    await page.getByLabel('Your Question').fill('Rust meetups in Berlin');
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/rust-meetup.html`);
    await page.getByRole('button', { name: 'Search Events' }).click();

    const list = page.getByRole('region', { name: 'Events in this answer' });
    const card = list.getByRole('listitem').filter({ hasText: 'Rust Meetup Berlin' });
    await card.locator('.event-card__repeats').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    expect(await card.locator('.event-card__repeats').textContent()).toBe('Repeats every second Tuesday');
    const ics = decodeURIComponent(
      ((await card.getByRole('link', { name: '.ics file for Rust Meetup Berlin' }).getAttribute('href')) ?? '').replace(/^data:[^,]*,/, ''),
    );
    expect(ics).toContain('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU\r\n');
    expect(ics).toMatch(/DTSTART;TZID=Europe\/Berlin:\d{8}T190000\r\n/);

    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `repeat-in-words-${width}`);
    }
    expect(unexpectedErrors(errors)).toEqual([]);
    await page.context().close();
  });
});
