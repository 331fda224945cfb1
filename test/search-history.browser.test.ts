import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SEARCH_NOT_FOUND } from '../web/client/events';
import { openPage, shot, unexpectedErrors } from '../dev/harness/browser';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { ask } from './support/ask';
import { seriousViolations } from './support/axe';
import { browserSuite, openSignedInHome } from './support/browser-suite';

/** The recent searches on the home view and a search's own address (`/?search=<id>`), in Chromium. */
describe('search history in Chromium', () => {
  const suite = browserSuite({ worker: true });
  const site = (path: string) => `${suite.stack.standins.url}/sites/${path}`;
  const response = (page: Page) => page.getByRole('region', { name: 'Response' });
  const historyList = (page: Page) => page.getByRole('list', { name: 'Your recent searches' });
  const searchIdInAddress = (page: Page) => new URL(page.url()).searchParams.get('search');

  /** A search as a person makes it; resolves once its events are shown, with its answer and address id. */
  async function searchFor(page: Page, ques: string, web: string): Promise<{ answer: string; id: string }> {
    await page.getByLabel('Your Question').fill(ques);
    await page.getByLabel('Website URL').fill(web);
    await page.getByRole('button', { name: 'Search Events' }).click();
    await page.getByRole('button', { name: 'Searching...' }).waitFor({ state: 'detached' });
    await until('the search to have its own address', async () => searchIdInAddress(page));
    await page.getByText('Finding the events in this answer…').waitFor({ state: 'detached' });
    return { answer: (await response(page).textContent()) ?? '', id: searchIdInAddress(page)! };
  }

  // Two searches, their events, reload, Back and a second user: about 30 s of a browser on a loaded machine.
  it('lists past searches, opens one from the list, by keyboard, on reload and with Back; only for its owner', async () => {
    const { page, errors } = await openSignedInHome(suite);
    // No searches yet: no list at all.
    await page.waitForLoadState('networkidle');
    expect(await historyList(page).count()).toBe(0);

    const berlin = await searchFor(page, 'AI events in Berlin', site('berlin-ai.html'));
    expect(berlin.answer).toMatch(/\S/);
    await page
      .getByRole('region', { name: 'Events in this answer' })
      .getByRole('link', { name: 'Applied ML Summit Berlin 2026', exact: true })
      .waitFor();
    const lisbon = await searchFor(page, 'AI conferences in Lisbon', '');
    expect(lisbon.id).not.toBe(berlin.id);

    // Newest first: question, site, when, and what each found; the one shown above is marked.
    const items = historyList(page).getByRole('listitem');
    await until('both searches listed', async () => (await items.count()) === 2);
    expect(await items.nth(0).getByRole('link').textContent()).toBe('AI conferences in Lisbon');
    expect(await items.nth(0).getByRole('link').getAttribute('aria-current')).toBe('page');
    const older = items.nth(1);
    expect(await older.getByRole('link').getAttribute('href')).toBe(`/?search=${berlin.id}`);
    await until('the Berlin line to count its events', async () => /3 events/.test((await older.textContent()) ?? ''));
    expect(await older.textContent()).toContain(new URL(site('berlin-ai.html')).host);
    expect(await older.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Chosen in the list: the answer, events, question and website come back, focus moves to Response.
    await older.getByRole('link').click();
    await until('the Berlin answer shown', async () => (await response(page).textContent()) === berlin.answer);
    expect(searchIdInAddress(page)).toBe(berlin.id);
    expect(await page.getByLabel('Your Question').inputValue()).toBe('AI events in Berlin');
    expect(await page.getByLabel('Website URL').inputValue()).toBe(site('berlin-ai.html'));
    await page
      .getByRole('region', { name: 'Events in this answer' })
      .getByRole('link', { name: 'Applied ML Summit Berlin 2026', exact: true })
      .waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Response');

    // A reload keeps it: the home view opens on the same answer and events.
    await page.reload();
    await until('the Berlin answer after the reload', async () => (await response(page).textContent()) === berlin.answer);
    await page
      .getByRole('region', { name: 'Events in this answer' })
      .getByRole('link', { name: 'Applied ML Summit Berlin 2026', exact: true })
      .waitFor();
    expect(await page.locator('[data-view="subscription"]').isHidden()).toBe(true);

    // Back goes to the search shown before.
    await page.goBack();
    await until('the Lisbon answer after Back', async () => (await response(page).textContent()) === lisbon.answer);

    // By keyboard: Tab from the question field reaches the list's links, Enter opens one.
    await historyList(page).getByRole('link', { name: 'AI events in Berlin' }).waitFor();
    await page.getByLabel('Your Question').focus();
    let tabs = 0;
    while (!(await page.evaluate(() => document.activeElement?.textContent === 'AI events in Berlin')) && tabs++ < 80) {
      await page.keyboard.press('Tab');
    }
    expect(tabs).toBeLessThan(80);
    await page.keyboard.press('Enter');
    await until('the Berlin answer by keyboard', async () => (await response(page).textContent()) === berlin.answer);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Response');

    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `search-history-${width}`);
    }
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);

    // Someone else's search, by its address: a sentence saying so, no answer, no events.
    const other = await createSignedInUser(suite.stack.db.sql);
    const { page: theirs, errors: theirErrors } = await openPage(suite.browser, 'about:blank');
    await theirs.context().addCookies([{ name: 'ef_session', value: other.token, url: suite.stack.url }]);
    await theirs.goto(`${suite.stack.url}/?search=${berlin.id}`);
    await theirs.getByRole('alert').getByText(SEARCH_NOT_FOUND).waitFor();
    expect(await response(theirs).textContent()).toBe('');
    expect(await theirs.getByRole('region', { name: 'Events in this answer' }).count()).toBe(0);
    await theirs.setViewportSize({ width: 390, height: 900 });
    await shot(theirs, 'search-history-not-yours-390');
    expect(unexpectedErrors(theirErrors)).toEqual([]);
  }, 90_000);

  it('a search that failed midway opens by its address with the part it showed and its failure', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite);
    suite.stack.standins.gemini.failNext({ when: 'after', status: 500 }, 'answer');
    const res = await ask(suite.stack.url, cookie, { ques: 'AI events', web: '' });
    const streamed = await res.text();
    expect(streamed).toMatch(/\n\n\[The answer is incomplete: .+\]\n$/);
    await page.goto(`${suite.stack.url}/?search=${res.headers.get('x-search-id')}`);
    const shown = response(page);
    await shown.getByText('[The answer is incomplete: The AI service failed while answering.', { exact: false }).waitFor();
    // As it ended live: the part shown, then the sentence saying it failed.
    expect((await shown.textContent())?.replace(/\s+/g, ' ').trim()).toBe(streamed.replace(/\s+/g, ' ').trim());
    await page.setViewportSize({ width: 390, height: 900 });
    await shot(page, 'search-failed-midway-390');
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('under a filtered answer: "1 event hidden by your filters", that the answer names it, and Show them', async () => {
    const { page, errors } = await openSignedInHome(suite);
    await page.getByText('Which events to show (optional)').click();
    await page.getByLabel('Attendance').selectOption('in_person');
    await searchFor(page, 'AI events in person', site('berlin-ai.html'));
    const shownList = page.getByRole('region', { name: 'Events in this answer' });
    await shownList.getByRole('link', { name: 'Applied ML Summit Berlin 2026', exact: true }).waitFor();
    expect(await shownList.getByRole('listitem').count()).toBe(2);
    await page.getByText('1 event hidden by your filters. The answer above still names it.').waitFor();
    const show = page.getByRole('button', { name: 'Show them' });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    await show.click();
    const hiddenList = page.getByRole('region', { name: 'Hidden by your filters' });
    await hiddenList.getByRole('link', { name: 'Hands-on: Fine-tuning open models (online)', exact: true }).waitFor();
    // Each hidden event says which filter left it out.
    expect(await hiddenList.getByRole('listitem').first().textContent()).toContain('Hidden: online, and you asked for in person');
    expect(await page.getByRole('button', { name: 'Hide them' }).getAttribute('aria-expanded')).toBe('true');
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `hidden-events-${width}`);
    }
    expect(await seriousViolations(page)).toEqual([]);
    // Reopened by its address, it says the same.
    await page.reload();
    await page.getByText('1 event hidden by your filters. The answer above still names it.').waitFor();
    expect(errors).toEqual([]);
  }, 60_000);

  it('under a filtered timer run: how many its filters hid, and Show them, at 320, 390 and 1280 px', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${suite.stack.url}${path}`, {
        method,
        headers: { cookie, origin: suite.stack.url, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const made = await call('POST', '/api/schedule', {
      ...dailyTimer({ ques: 'AI events in person', web: site('berlin-ai.html') }),
      filters: { attendance: 'in_person' },
    });
    const timerId = ((await made.json()) as { id: number }).id;
    expect((await call('POST', `/api/timers/${timerId}/run`)).status).toBe(202);
    await until('the run to end', async () => {
      const runs = (await (await call('GET', `/api/timers/${timerId}/runs`)).json()) as { status: string }[];
      return runs[0]?.status === 'succeeded';
    });
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    await page.getByRole('button', { name: 'Show runs' }).click();
    const runs = page.getByRole('list', { name: 'Runs, newest first' });
    // The run's answer is folded in its line, not above the events: the sentence says where it is.
    await runs
      .getByText("1 event hidden by your filters. The run's answer still names it: open the run's line above to read it.")
      .waitFor();
    await runs.getByRole('button', { name: 'Show them' }).click();
    await runs
      .getByRole('region', { name: 'Hidden by your filters' })
      .getByRole('link', { name: 'Hands-on: Fine-tuning open models (online)', exact: true })
      .waitFor();
    await runs.getByRole('region', { name: 'Hidden by your filters' }).getByText('Hidden: online, and you asked for in person').waitFor();
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await runs.scrollIntoViewIfNeeded();
      await shot(page, `run-hidden-events-${width}`);
    }
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
