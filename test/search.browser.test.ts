import { describe, expect, it } from 'vitest';
import { getBilling } from '../db/accounts';
import { browserSuite, openSignedInHome } from './support/browser-suite';

describe('the event search screen in Chromium', () => {
  const suite = browserSuite();

  const signedInHome = () => openSignedInHome(suite);

  it('streams the answer into Response while the button reads Searching...', async () => {
    const { page, errors, user } = await signedInHome();
    suite.stack.standins.gemini.setChunkDelay(250);
    const question = page.getByLabel('Your Question');
    expect(await question.getAttribute('placeholder')).toBe('Find AI conferences in Berlin next month');
    await question.fill('Find AI conferences in Berlin next month');
    const response = page.getByLabel('Response');
    expect(await response.getAttribute('readonly')).not.toBeNull();

    await page.getByRole('button', { name: 'Search Events' }).click();
    const busy = page.getByRole('button', { name: 'Searching...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);

    // The text grows while the search runs: sample it several times before the button comes back.
    await page.waitForFunction(() => (document.querySelector('textarea') as HTMLTextAreaElement).value.length > 0);
    const lengths: number[] = [];
    while ((await busy.count()) > 0 && lengths.length < 40) {
      lengths.push((await response.inputValue()).length);
      await page.waitForTimeout(120);
    }
    const distinct = new Set(lengths.filter((n) => n > 0));
    expect(distinct.size).toBeGreaterThanOrEqual(3);
    expect([...distinct]).toEqual([...distinct].sort((a, b) => a - b));

    const button = page.getByRole('button', { name: 'Search Events' });
    await button.waitFor();
    expect(await button.isEnabled()).toBe(true);
    const text = await response.inputValue();
    expect(text).toContain('AI Summit Berlin');
    expect(text).toContain('Sources:');
    expect(suite.stack.standins.gemini.lastRequest!.prompt).toMatch(/The user's time zone is [A-Za-z_/]+/);
    expect((await getBilling(suite.stack.db.sql, user.id))!.credits).toBe(9);
    // Set Timer opens its panel and hides the Response area (spec section 2); Manage Timers shows the list.
    await page.getByRole('button', { name: 'Set Timer' }).click();
    await response.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    await response.waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Manage Timers' }).getAttribute('aria-expanded')).toBe('true');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("shows a server error as 'Error: Backend error: ...'", async () => {
    const { page } = await signedInHome();
    await page.getByLabel('Your Question').fill('Events');
    await page.getByLabel('Website URL').fill('http://10.0.0.1/events');
    await page.getByRole('button', { name: 'Search Events' }).click();
    await page.getByRole('button', { name: 'Search Events' }).waitFor();
    await page.waitForFunction(() => (document.querySelector('textarea') as HTMLTextAreaElement).value.startsWith('Error:'));
    expect(await page.getByLabel('Response').inputValue()).toBe(
      'Error: Backend error: The website address 10.0.0.1 points to a private or local network, which we do not read. Use a public website.',
    );
    await page.context().close();
  });
});
