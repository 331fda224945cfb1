import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORED_EVENTS_PER_SEARCH } from '../core/search/stored-events';
import { shotInView, unexpectedErrors } from '../dev/harness/browser';
import type { StackOptions } from '../dev/harness/stack';
import { until } from '../dev/harness/wait';
import { browserSuite, openSignedInHome } from './support/browser-suite';
import { startMeetupsSite } from './support/meetups-site';

const FOUND = 700;

/**
 * A website whose page lists 700 events, one every twelve hours from tomorrow (h-event): the page lists every event
 * the search keeps and says, under them, how many more it found and how to see them.
 */
describe('a search that found more events than it keeps, in Chromium', () => {
  let site: Awaited<ReturnType<typeof startMeetupsSite>>;
  // Filled before the stack starts: the site's port is allowed to be read (browserSuite reads it in its beforeAll).
  const options: StackOptions & { env: Record<string, string> } = { worker: true, env: {} };
  beforeAll(async () => {
    site = await startMeetupsSite(FOUND);
    options.env.WEBSITE_FETCH_ALLOW = `127.0.0.1:${site.port}`;
  });
  const suite = browserSuite(options);
  afterAll(async () => {
    await site?.close();
  });

  it('lists all 500 kept events and says how many more were found, live and opened again', async () => {
    const { page, errors } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    await page.getByLabel('Your Question').fill('What meetups are on?');
    await page.getByLabel('Website URL').fill(site.url);
    await page.getByRole('button', { name: 'Search Events' }).click();
    await until('the search to have its own address', async () => new URL(page.url()).searchParams.get('search'));
    await page.getByText('Finding the events in this answer…').waitFor({ state: 'detached' });

    const list = page.getByRole('region', { name: 'Events in this answer' });
    const note = page.locator('.search__events-left-out');
    const check = async () => {
      await list.waitFor();
      expect(await list.getByRole('listitem').count()).toBe(STORED_EVENTS_PER_SEARCH);
      const text = (await note.textContent()) ?? '';
      const leftOut = Number(/found ([\d,]+) more events than the 500 it keeps/.exec(text)?.[1]?.replace(/,/g, ''));
      // At least the page's 700 less the 500 kept (the answer may name a few of its own besides).
      expect(leftOut).toBeGreaterThanOrEqual(FOUND - STORED_EVENTS_PER_SEARCH);
      expect(text).toContain('so they are not listed. To see them, ask a narrower question or choose dates under “Which events to show”.');
      expect(await note.isVisible()).toBe(true);
    };
    await check();

    // Opened again from its address, the page says the same.
    await page.reload();
    await check();
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // The sentence in view (a full page of 500 cards is too tall for a screenshot).
      await note.scrollIntoViewIfNeeded();
      await shotInView(page, `events-left-out-${width}`);
    }
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('says nothing under a search that kept all its events', async () => {
    const { page, errors } = await openSignedInHome(suite);
    await page.getByLabel('Your Question').fill('AI events in Berlin');
    await page.getByLabel('Website URL').fill('');
    await page.getByRole('button', { name: 'Search Events' }).click();
    await until('the search to have its own address', async () => new URL(page.url()).searchParams.get('search'));
    await page.getByText('Finding the events in this answer…').waitFor({ state: 'detached' });
    expect(await page.locator('.search__events-left-out').count()).toBe(0);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
