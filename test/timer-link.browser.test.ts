import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { timerRunsUrl, timerRunUrl } from '../core/delivery/links';
import { createSession, SESSION_COOKIE } from '../db/sessions';
import { upsertUserFromGoogle } from '../db/users';
import { searchEntryPointFor } from '../dev/standins/gemini-usage';
import { subForEmail } from '../dev/standins/google';
import { appFetch } from './support/billing';
import { openPage, shot } from '../dev/harness/browser';
import { browserSuite } from './support/browser-suite';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';

/** The digest email's "link to the timer's runs" (core/delivery/links.ts) opens that timer in Manage Timers. */
describe('a link to a timer (/#timer-<id>) in Chromium', () => {
  const suite = browserSuite();
  const home = (page: Page) => page.locator('[data-view="home"]');
  const timersPanel = (page: Page) => page.getByRole('region', { name: 'Your Timers' });
  const row = (page: Page, timerId: number) => timersPanel(page).locator(`[data-timer-id="${timerId}"]`);

  async function createTimers(cookie: string, count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await appFetch(suite.stack, cookie, '/api/schedule', {
        method: 'POST',
        body: JSON.stringify({
          scheduleType: 'daily',
          time: `0${i + 1}:00`,
          weekday: '',
          ques: `Meetups number ${i + 1}`,
          web: '',
          timezone: 'Europe/Berlin',
        }),
      });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { id: number }).id);
    }
    // The linked timer has a run to show; the others have none.
    await suite.stack.db.sql`insert into timer_runs (timer_id, scheduled_for, status, error, finished_at)
                             values (${ids[ids.length - 1]!}, '2026-11-20T08:00:00Z', 'failed', 'The website answered with an error (HTTP 500).', '2026-11-20T08:00:05Z')`;
    return ids;
  }

  /** The linked row: in view, focused, its runs open. */
  async function expectShown(page: Page, timerId: number): Promise<void> {
    const linked = row(page, timerId);
    await linked.locator('.timer-run__error').getByText('The website answered with an error (HTTP 500).').waitFor();
    expect(await linked.getByRole('button', { name: 'Hide runs' }).getAttribute('aria-expanded')).toBe('true');
    await until('the linked row to have focus', () => linked.evaluate((el) => el === document.activeElement));
    const inView = await linked.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.top < window.innerHeight;
    });
    expect(inView).toBe(true);
    // Only the linked timer opened its runs.
    expect(await timersPanel(page).getByRole('button', { name: 'Hide runs' }).count()).toBe(1);
  }

  it('signed in: opens home, Manage Timers and the timer with its runs, in view and focused, at 390 and 1280 px', async () => {
    const { cookie, token } = await createSignedInUser(suite.stack.db.sql);
    const ids = await createTimers(cookie, 4);
    const linkedId = ids[3]!;
    for (const width of [390, 1280]) {
      const { page, errors } = await openPage(suite.browser, 'about:blank', { viewport: { width, height: 800 } });
      await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: suite.stack.url }]);
      await page.goto(timerRunsUrl(suite.stack.url, linkedId));
      await expectShown(page, linkedId);
      expect(await page.getByRole('heading', { name: 'Choose Your Plan' }).isVisible()).toBe(false);
      expect(await home(page).getByRole('button', { name: 'Manage Timers' }).getAttribute('aria-expanded')).toBe('true');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `timer-link-${width}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }

    // Without a fragment the page still starts on the plan view, as the spec says.
    const { page } = await openPage(suite.browser, 'about:blank');
    await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: suite.stack.url }]);
    await page.goto(`${suite.stack.url}/`);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    expect(await page.getByRole('heading', { name: 'Choose Your Plan' }).isVisible()).toBe(true);
    expect(await home(page).isVisible()).toBe(false);

    // A link followed while the page is open (the fragment changes) does the same.
    await page.evaluate((id) => {
      window.location.hash = `#timer-${id}`;
    }, linkedId);
    await expectShown(page, linkedId);
    await page.context().close();
  });

  it("a digest's link to its own run (/#timer-<id>-run-<runId>) opens that run's answer, not the latest's, at 320, 390 and 1280 px", async () => {
    const { cookie, token } = await createSignedInUser(suite.stack.db.sql);
    const [timerId] = await createTimers(cookie, 1);
    const sql = suite.stack.db.sql;
    const [older] = await sql<{ id: string }[]>`
      insert into timer_runs (timer_id, scheduled_for, started_at, status, answer, finished_at)
      values (${timerId!}, '2026-11-18T08:00:00Z', '2026-11-18T08:00:00Z', 'succeeded', 'The answer of the run on the 18th.', '2026-11-18T08:00:09Z')
      returning id`;
    await sql`insert into timer_runs (timer_id, scheduled_for, started_at, status, answer, finished_at)
              values (${timerId!}, '2026-11-25T08:00:00Z', '2026-11-25T08:00:00Z', 'succeeded', 'The answer of the latest run.', '2026-11-25T08:00:09Z')`;
    for (const width of [320, 390, 1280]) {
      const { page, errors } = await openPage(suite.browser, 'about:blank', { viewport: { width, height: 800 } });
      await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: suite.stack.url }]);
      await page.goto(timerRunUrl(suite.stack.url, timerId!, Number(older!.id)));
      const linkedRun = row(page, timerId!).locator(`[data-run-id="${older!.id}"]`);
      await linkedRun.getByText('The answer of the run on the 18th.').waitFor({ state: 'visible' });
      const runList = row(page, timerId!).getByRole('list', { name: 'Runs, newest first' });
      expect(await runList.getByText('The answer of the latest run.').isVisible()).toBe(false);
      await until('the linked run to have focus', () => linkedRun.evaluate((el) => el.contains(document.activeElement)));
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `timer-run-link-${width}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('signed out: shows the sign-in on home, and after signing in opens the timer', async () => {
    // The account the stand-in's chooser signs in as, with a timer of its own.
    const sql = suite.stack.db.sql;
    const ada = await upsertUserFromGoogle(sql, { sub: subForEmail('ada@example.com'), email: 'ada@example.com', name: 'Ada Lovelace' });
    const { token } = await createSession(sql, ada.id);
    const ids = await createTimers(`${SESSION_COOKIE}=${token}`, 2);

    const { page, errors } = await openPage(suite.browser, timerRunsUrl(suite.stack.url, ids[1]!), {
      viewport: { width: 390, height: 800 },
    });
    await home(page).getByRole('heading', { name: 'Login with Google' }).waitFor({ state: 'visible' });
    expect(await page.getByRole('heading', { name: 'Choose Your Plan' }).isVisible()).toBe(false);
    await shot(page, 'timer-link-signed-out-390');
    await home(page).getByRole('button', { name: 'Sign in with Google' }).click();
    const chooser = page.getByRole('dialog', { name: 'Choose an account' });
    await chooser.getByRole('button', { name: /Ada Lovelace/ }).click();
    await expectShown(page, ids[1]!);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('an unknown or deleted timer: the list as usual, with a short sentence', async () => {
    const { cookie, token } = await createSignedInUser(suite.stack.db.sql);
    const [kept, deleted] = await createTimers(cookie, 2);
    expect(
      (await appFetch(suite.stack, cookie, '/api/timer/delete', { method: 'POST', body: JSON.stringify({ timer_id: deleted }) })).status,
    ).toBe(200);

    const { page, errors } = await openPage(suite.browser, 'about:blank');
    await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: suite.stack.url }]);
    await page.goto(timerRunsUrl(suite.stack.url, deleted!));
    await timersPanel(page).getByText('That timer no longer exists.').waitFor();
    await row(page, kept!).waitFor();
    expect(await timersPanel(page).getByRole('button', { name: 'Hide runs' }).count()).toBe(0);
    await until('the panel heading to have focus', () =>
      timersPanel(page)
        .getByRole('heading', { name: 'Your Timers' })
        .evaluate((el) => el === document.activeElement),
    );
    await shot(page, 'timer-link-gone-1280');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("the email's link shows that run's answer with its Search Suggestions, which the run's line closes and opens", async () => {
    const { cookie, token } = await createSignedInUser(suite.stack.db.sql);
    const [timerId] = await createTimers(cookie, 1);
    const answer = 'Three AI meetups in Berlin next week, the first on Tuesday at the Factory.';
    const [run] = await suite.stack.db.sql<{ id: string }[]>`
      insert into timer_runs (timer_id, scheduled_for, status, answer, finished_at)
      values (${timerId!}, '2026-11-24T08:00:00Z', 'succeeded', ${answer}, '2026-11-24T08:00:09Z') returning id`;
    // The run's grounded search kept Google's Search Suggestions (as Gemini sends them: the stand-in's markup).
    const suggestions = searchEntryPointFor(['AI meetups Berlin 2026']).renderedContent;
    const [user] = await suite.stack.db.sql<{ user_id: string }[]>`select user_id from timers where id = ${timerId!}`;
    await suite.stack.db.sql`
      insert into searches (user_id, timer_run_id, question, status, search_suggestions)
      values (${user!.user_id}, ${run!.id}, 'Meetups number 1', 'answered', ${suggestions})`;
    const { page, errors } = await openPage(suite.browser, 'about:blank', { viewport: { width: 390, height: 800 } });
    await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: suite.stack.url }]);
    await page.goto(timerRunsUrl(suite.stack.url, timerId!));
    const linked = row(page, timerId!);
    const shown = linked.locator('.timer-run__answer');
    await shown.waitFor();
    expect(await shown.textContent()).toBe(answer);
    // Google's Search Suggestions beside the grounded answer, as with an ask (Google's display rule).
    const chip = page
      .frameLocator('iframe[title="Google Search suggestions for this answer"]')
      .getByRole('link', { name: 'AI meetups Berlin 2026', exact: true });
    await chip.waitFor();
    expect(await chip.getAttribute('href')).toBe('https://www.google.com/search?q=AI%20meetups%20Berlin%202026');
    await shot(page, 'timer-link-answer-390');

    // The run's line closes and opens it again, by keyboard too (opened by hand, it starts closed).
    const line = linked.locator('.timer-run--latest summary');
    await line.focus();
    await page.keyboard.press('Enter');
    await shown.waitFor({ state: 'hidden' });
    expect(await linked.locator('iframe.search__suggestions').isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    await shown.waitFor({ state: 'visible' });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
