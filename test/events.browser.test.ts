import { describe, expect, it } from 'vitest';
import { appFetch } from './support/billing';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { browserSuite, openSignedInHome } from './support/browser-suite';

describe('event cards and timer feeds in Chromium', () => {
  // The worker runs "Run now" like a scheduled fire.
  const suite = browserSuite({ worker: true });

  it('shows the answer’s events as cards with Add to calendar, usable by keyboard from 320 to 1280 px', async () => {
    const { page, errors } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    await page.getByLabel('Your Question').fill('AI events in Berlin');
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/berlin-ai.html`);
    await page.getByRole('button', { name: 'Search Events' }).click();

    const list = page.getByRole('region', { name: 'Events in this answer' });
    await list.waitFor();
    const cards = list.getByRole('listitem');
    expect(await cards.count()).toBe(3);
    const first = cards.first();
    expect(await first.getByRole('link', { name: 'Applied ML Summit Berlin 2026', exact: true }).getAttribute('href')).toBe(
      'https://ai-events.example/events/applied-ml-summit',
    );
    expect(await first.textContent()).toContain('Thu 18 Jun 2026, 09:00 – Fri 19 Jun 2026, 18:00');
    // The sample site's events were in June 2026: over now, so shown as past and never badged New.
    expect(await first.getByText('Past', { exact: true }).count()).toBe(1);
    expect(await list.getByText('New', { exact: true }).count()).toBe(0);
    expect(await cards.nth(2).getByText('Online', { exact: true }).count()).toBe(1);
    const google = first.getByRole('link', { name: /Google Calendar/ });
    expect(await google.getAttribute('href')).toMatch(/^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&/);
    const ics = first.getByRole('link', { name: /\.ics file/ });
    expect(await ics.getAttribute('download')).toBe('Applied-ML-Summit-Berlin-2026.ics');

    // Keyboard: Tab from the title link reaches Google Calendar, then the .ics file.
    await first.getByRole('link', { name: 'Applied ML Summit Berlin 2026', exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await google.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await ics.evaluate((el) => el === document.activeElement)).toBe(true);
    // The .ics download is a calendar file with the event's start in UTC.
    const download = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const file = await download;
    expect(file.suggestedFilename()).toBe('Applied-ML-Summit-Berlin-2026.ics');

    for (const width of [320, 768, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `events-answer-${width}`);
    }
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('says the answer’s events are coming while they are found after it, then shows their cards', async () => {
    // No search-events worker while the answer ends: the page has to wait for the events, and says so.
    await suite.stack.searchEvents?.close();
    const { page, errors } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    await page.getByLabel('Your Question').fill('AI events in Berlin');
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/berlin-ai.html`);
    await page.getByRole('button', { name: 'Search Events' }).click();
    const finding = page.getByRole('status').filter({ hasText: 'Finding the events in this answer…' });
    await finding.waitFor();
    expect(await page.getByRole('button', { name: 'Search Events' }).isEnabled()).toBe(true);
    expect(await page.getByRole('region', { name: 'Events in this answer' }).count()).toBe(0);
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `events-finding-${width}`);
    }
    await suite.stack.startSearchEvents();
    const list = page.getByRole('region', { name: 'Events in this answer' });
    await list.waitFor();
    expect(await list.getByRole('listitem').count()).toBe(3);
    await finding.waitFor({ state: 'detached' });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('shows no events while their status is pending, though some are stored, then all of them at once', async () => {
    const { page, errors } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    // Events are written a moment before their status ends: the first two reads see them still pending.
    let pendingReads = 0;
    const twoPendingReads = new Promise<void>((resolve) => {
      void page.route('**/api/searches/*', async (route) => {
        const reply = await (await route.fetch()).json();
        if (pendingReads < 2 && reply.events.length > 0) {
          pendingReads++;
          if (pendingReads === 2) resolve();
          await route.fulfill({ json: { ...reply, events: reply.events.slice(0, 1), events_status: 'pending' } });
          return;
        }
        await route.fulfill({ json: reply });
      });
    });
    await page.getByLabel('Your Question').fill('AI events in Berlin');
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/berlin-ai.html`);
    await page.getByRole('button', { name: 'Search Events' }).click();
    await twoPendingReads;
    expect(await page.getByRole('status').filter({ hasText: 'Finding the events in this answer…' }).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Events in this answer' }).count()).toBe(0);
    const list = page.getByRole('region', { name: 'Events in this answer' });
    await list.waitFor();
    expect(await list.getByRole('listitem').count()).toBe(3);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('one event this browser cannot show leaves the other cards and the page standing', async () => {
    const { page, errors } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    // A reply as a server with an event stored before strict values would send it: a date no browser can read.
    await page.route('**/api/searches/*', async (route) => {
      const reply = await (await route.fetch()).json();
      // Once the events are there: a read while they are still being found (a loaded machine) has none to copy.
      if (reply.events.length > 0) {
        reply.events.splice(1, 0, { ...reply.events[0], key: 'bad', title: 'Broken date', starts_at: 'not-a-date', all_day: true });
      }
      await route.fulfill({ json: reply });
    });
    await page.getByLabel('Your Question').fill('AI events in Berlin');
    await page.getByLabel('Website URL').fill(`${suite.stack.standins.url}/sites/berlin-ai.html`);
    await page.getByRole('button', { name: 'Search Events' }).click();

    // Found by the worker after the answer: on a loaded machine that has taken over half a minute once.
    const list = page.getByRole('region', { name: 'Events in this answer' });
    await list.waitFor({ timeout: 80_000 });
    const cards = list.getByRole('listitem');
    expect(await cards.count()).toBe(4);
    expect(await cards.first().textContent()).toContain('Thu 18 Jun 2026, 09:00 – Fri 19 Jun 2026, 18:00');
    expect(await cards.nth(1).textContent()).toContain('“Broken date”: this event could not be shown');
    expect(
      await cards
        .nth(2)
        .getByRole('link', { name: /Google Calendar/ })
        .count(),
    ).toBe(1);
    // The page around the list still works.
    await page.getByLabel('Your Question').fill('Another question');
    expect(await page.getByLabel('Your Question').inputValue()).toBe('Another question');
    expect(
      unexpectedErrors(errors).filter((e) => !/Broken date|Invalid time value|getDerivedStateFromError|error boundary/i.test(e)),
    ).toEqual([]);
  }, 90_000);

  it('Manage Timers: Run now, runs with "N new" and their cards, and the feed URLs with copy and webcal', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    const saved = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({
        scheduleType: 'daily',
        time: '03:00',
        weekday: '',
        ques: 'AI events in Berlin',
        web: `${suite.stack.standins.url}/sites/changing/browser${Date.now()}.html`,
        timezone: 'Europe/Berlin',
      }),
    });
    expect(saved.status).toBe(200);

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = page.getByRole('region', { name: 'Your Timers' }).getByRole('listitem').first();
    await row.waitFor();
    await expect(row.getByText('No runs yet.', { exact: true }).first().isVisible()).resolves.toBe(true);
    const badge = page.locator('[data-view="home"] .credits-badge');
    const before = Number(/\d+/.exec((await badge.textContent()) ?? '')?.[0]);
    await row.getByRole('button', { name: 'Run now' }).click();
    await row.locator('.timer-run__head', { hasText: '3 new' }).waitFor({ timeout: 30_000 });
    // The run took one search, and the badge says so without a reload.
    await badge.filter({ hasText: new RegExp(`^${before - 1} searches? left$`) }).waitFor();
    // The row's own summary follows the run it just showed (on screen once the runs are hidden again: while they
    // show, their first line says the same).
    await row.locator('.timer-row__result summary', { hasText: 'Latest result' }).waitFor({ state: 'attached' });
    await row.getByRole('button', { name: 'Run now' }).click();
    await row.locator('.timer-run__head', { hasText: '1 new' }).waitFor({ timeout: 30_000 });
    // The newest run first, its new event first.
    const newest = row.locator('.timer-run').first();
    const firstCard = newest.getByRole('listitem').first();
    expect(await firstCard.textContent()).toMatch(/Robotics Demo Day[\s\S]*New/);

    await row.getByText('Calendar and feed').click();
    const ical = row.getByLabel('Calendar (iCal)');
    expect(await ical.inputValue()).toMatch(/\/feeds\/[\w-]{43}\.ics$/);
    expect(await row.getByRole('link', { name: 'Subscribe in your calendar app' }).getAttribute('href')).toMatch(/^webcal:\/\//);
    expect(await row.getByLabel('Atom feed').inputValue()).toMatch(/\.atom$/);
    expect(await row.getByRole('button', { name: 'Copy Calendar (iCal) address' }).count()).toBe(1);

    // The calendar the page shows is the one the server serves.
    expect((await fetch(await ical.inputValue())).status).toBe(200);

    for (const width of [320, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `events-timer-runs-${width}`);
    }
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
