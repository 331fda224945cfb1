import { describe, expect, it } from 'vitest';
import { searchReplySchema } from '../core/contract/event-replies';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { groundedEvents } from '../dev/standins/grounded-answer';
import { appFetch } from './support/billing';
import { browserSuite, openSignedInHome } from './support/browser-suite';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The sample sites' grounded answer for "(wrong date)" (dev/standins/grounded-answer.ts) states the Berlin
 * Machine Learning Meetup a day and two hours late, as "<next day>, 21:00 to 23:00"; its page gives Tuesday 19:00.
 * The meetup's day follows today (the first Tuesday a week ahead), so the test reads it from the stand-in and
 * writes what the page must show from it by hand.
 */
function meetupDates() {
  const right = groundedEvents('').meetup.startsAt.slice(0, 10);
  const [y, mo, d] = right.split('-').map(Number);
  const next = new Date(Date.UTC(y!, mo! - 1, d! + 1)).toISOString().slice(0, 10);
  return { said: `${next}, 21:00`, checked: `Tue ${d} ${MONTHS[mo! - 1]} ${y}, 19:00` };
}

describe('an answer marked where its checked events contradict it (Chromium)', () => {
  const suite = browserSuite();

  it('strikes the wrong date in the Response text with the checked date beside it; the stored answer stays as written', async () => {
    const { stack } = suite;
    const { said, checked } = meetupDates();
    const { page, errors, cookie } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    await page.getByLabel('Your Question').fill('AI meetups in Berlin (wrong date)');
    await page.getByLabel('Website URL').fill('');
    await page.getByRole('button', { name: 'Search Events' }).click();

    const response = page.getByRole('region', { name: 'Response' });
    const mark = response.locator('.answer-correction');
    await mark.waitFor();
    expect(await mark.count()).toBe(1);
    expect(await mark.locator('del').textContent()).toBe(`The answer said ${said}`);
    expect(await mark.locator('ins').textContent()).toBe(`checked date: ✓ ${checked}`);
    // The mark stands where the date stood: after "Date: " on the meetup's lines, before the rest of its line.
    const text = (await response.textContent()) ?? '';
    expect(text).toContain(`Berlin Machine Learning Meetup\nDate: The answer said ${said} checked date: ✓ ${checked} to 23:00`);
    // The card says the same.
    const card = page
      .getByRole('region', { name: 'Events in this answer' })
      .getByRole('listitem')
      .filter({ hasText: 'Berlin Machine Learning Meetup' });
    expect(await card.textContent()).toContain(checked);

    // Read back later: the answer as Gemini wrote it, its correction with its place, and the marked text.
    const url = new URL(page.url());
    const searchId = url.searchParams.get('search');
    expect(searchId).not.toBeNull();
    const search = searchReplySchema.parse(await (await appFetch(stack, cookie, `/api/searches/${searchId}`)).json());
    expect(search.answer).toContain(`Date: ${said} to 23:00`);
    expect(search.answer).not.toContain('[corrected');
    expect(search.answer_corrections).toHaveLength(1);
    const [c] = search.answer_corrections;
    expect(search.answer!.slice(c!.start, c!.end)).toBe(said);
    expect(c).toMatchObject({ said, checked });
    expect(search.marked_answer).toContain(`Date: ${said} [corrected: ${checked}] to 23:00`);

    // Opened again from its address, the page marks it the same way.
    await page.goto(url.toString());
    await response.locator('.answer-correction').waitFor();
    expect(await response.locator('.answer-correction ins').textContent()).toContain(checked);
    for (const width of [320, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `answer-corrections-${width}`);
    }
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
