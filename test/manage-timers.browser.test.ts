import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { appFetch } from './support/billing';
import { seriousViolations } from './support/axe';
import { browserSuite, openSignedInHome } from './support/browser-suite';
import { seededEvent, seedRuns } from './support/seed-runs';

// One date style everywhere (docs/decisions/time.md), en-GB's 24-hour clock: 'Thu 26 Nov 2026, 09:00'.
const MOMENT = /^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/;

describe('Manage Timers, round 3 (Chromium)', () => {
  const suite = browserSuite();
  const timersPanel = (page: Page) => page.getByRole('region', { name: 'Your Timers' });

  async function createTimer(cookie: string, ques: string, timezone = 'Europe/Berlin', time = '09:00'): Promise<number> {
    const res = await appFetch(suite.stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({ scheduleType: 'daily', time, weekday: '', ques, web: '', timezone }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: number }).id;
  }

  /** Five runs, oldest first: all new; one more; nothing new; changes only; and the latest with a bit of each. */
  async function seedFiveRuns(timerId: number) {
    const a = seededEvent('Data Engineering Night', 14, { venue: 'Kulturbrauerei' });
    const b = seededEvent('Open Source AI Meetup', 21, { venue: 'c-base' });
    const c = seededEvent('Vector Databases Workshop', 28, { venue: 'Factory Berlin' });
    const d = seededEvent('Robotics Demo Day', 35, { venue: 'Motorwerk' });
    const seen = (e: typeof a) => ({ ...e, new: false });
    const moved = { ...seen(b), status: 'moved' as const, starts_at: seededEvent('x', 23).starts_at };
    const cancelled = { ...seen(c), status: 'cancelled' as const };
    await seedRuns(suite.stack.db.sql, timerId, [
      { hoursAgo: 96, events: [a, b, c] },
      { hoursAgo: 72, events: [d, seen(a), seen(b), seen(c)] },
      { hoursAgo: 48, events: [seen(a), seen(b), seen(c), seen(d)] },
      { hoursAgo: 24, events: [moved, cancelled, seen(a), seen(d)], changed: [b.key, c.key] },
      {
        hoursAgo: 1,
        events: [
          seededEvent('Python Berlin Meetup', 10, { venue: 'Mitte' }),
          // Over already (a model's answer about last week): shown as past, never counted or badged New.
          seededEvent('Last Week’s Hackathon', -5, { venue: 'Betahaus' }),
          { ...seen(a), venue: 'Kulturbrauerei, Hall 2' },
          seen(d),
          { ...moved, new: false },
        ],
        changed: [a.key],
      },
    ]);
  }

  it('shows runs as "N new · M changed", older runs one line each, no repeats, past events as past; 3 timers × 5 runs fit a phone', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    const ids = [
      await createTimer(cookie, 'AI meetups in Berlin'),
      await createTimer(cookie, 'Data conferences in New York', 'America/New_York', '18:30'),
      await createTimer(cookie, 'Robotics events in Munich'),
    ];
    for (const id of ids) await seedFiveRuns(id);

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const rows = timersPanel(page).locator('.timer-row');
    await rows.nth(2).waitFor();
    for (const row of await rows.all()) {
      await row.getByRole('button', { name: 'Show runs' }).click();
      await row.locator('.timer-run--latest').waitFor();
    }
    const row = rows.filter({ hasText: 'AI meetups in Berlin' });
    const runs = row.locator('.timer-run');
    expect(await runs.count()).toBe(5);

    // The latest run is open: what it found, with the events it found new or changed as cards.
    const latest = row.locator('.timer-run--latest');
    expect(await latest.locator('.timer-run__head strong').textContent()).toBe('1 new · 1 changed');
    const cards = latest.locator('.event-card');
    expect(await cards.allInnerTexts()).toEqual([
      expect.stringMatching(/^Python Berlin Meetup\s+New/),
      expect.stringMatching(/^Data Engineering Night\s+Changed/),
      expect.stringMatching(/^Last Week’s Hackathon\s+Past/),
    ]);
    // The past one is neither New nor counted; the events seen before as they were are only counted.
    expect(await latest.locator('[data-past]').getByText('New', { exact: true }).count()).toBe(0);
    expect(await latest.locator('.timer-run__unchanged').textContent()).toBe('2 events seen before, unchanged');

    // Older runs: one line each, closed; a run of changes only says so, and none reads "0 new".
    const older = await row.locator('.timer-run:not(.timer-run--latest) .timer-run__head').allInnerTexts();
    expect(older.map((line) => line.replace(/^.*? · /, ''))).toEqual(['2 changed', 'nothing new', '1 new', '3 new']);
    expect(older.join('\n')).not.toContain('0 new');
    expect(await row.locator('.timer-run__older[open]').count()).toBe(0);
    const oneLine = await row.locator('.timer-run__older summary').first().boundingBox();
    expect(oneLine!.height).toBeLessThan(30);
    // Opening an older run shows what it changed, not the events it had seen before.
    await row.locator('.timer-run__older summary').first().click();
    expect(await row.locator('.timer-run__older[open] .event-card').allInnerTexts()).toEqual([
      expect.stringMatching(/^Open Source AI Meetup\s+Changed: new date/),
      expect.stringMatching(/^Vector Databases Workshop\s+Changed: cancelled/),
    ]);
    await row.locator('.timer-run__older summary').first().click();

    // One date style: runs, next run, latest result, cards.
    for (const t of await row.locator('.timer-run__head time').allInnerTexts()) expect(t).toMatch(MOMENT);
    expect(await row.locator('.timer-row__result summary time').textContent()).toMatch(MOMENT);
    expect(await row.locator('.timer-row__meta time').textContent()).toMatch(MOMENT);
    // A run's card writes the date whole (what screen readers read) and short, for a phone's line.
    expect(await cards.first().locator('.event-card__when time .event-card__date-long').textContent()).toMatch(MOMENT);
    // A UTC time (timezone_source 'offset') reads in the viewer's zone: 17:00Z is 18:00 in Berlin in winter.
    expect(await cards.first().locator('.event-card__when time .event-card__date-long').textContent()).toMatch(/, 18:00$/);
    expect(await cards.first().locator('.event-card__when time .event-card__date-short').textContent()).toMatch(
      /^\d{1,2} [A-Z][a-z]{2}, 18:00$/,
    );
    // Next run names its zone only when it is not the browser's.
    const newYork = rows.filter({ hasText: 'Data conferences in New York' });
    expect(await newYork.locator('.timer-row__meta', { hasText: 'Next run' }).textContent()).toMatch(
      /^Next run: [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}, 18:30 \(America\/New York\)$/,
    );
    expect(await row.locator('.timer-row__meta', { hasText: 'Next run' }).textContent()).not.toContain('(');

    // Run now and Pause come first, as primary actions; Delete is the row's last control.
    const controls = await row.evaluate((li) =>
      [...li.querySelectorAll<HTMLElement>('button, summary, a[href], input')].map((el) => ({
        text: el.textContent?.trim() ?? '',
        secondary: el.classList.contains('button--secondary'),
      })),
    );
    const names = controls.map((c) => c.text);
    expect(names.indexOf('Run now')).toBeLessThan(names.indexOf('Pause timer'));
    expect(names.indexOf('Pause timer')).toBeLessThan(
      names.indexOf('Show runs') < 0 ? names.indexOf('Hide runs') : names.indexOf('Show runs'),
    );
    expect(names.at(-1)).toBe('Delete');
    expect(controls.find((c) => c.text === 'Run now')!.secondary).toBe(false);

    // 3 timers × 5 runs, every run list open, on a phone: under 2,750 px.
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `manage-timers-5-runs-${width}`);
    }
    // On a phone an older run is still one line, nothing of it cut: the moment short ('24 Nov, 14:23'), the whole
    // one what a screen reader reads and the short one's tooltip.
    const olderLines = row.locator('.timer-run__older summary');
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const lines = await olderLines.evaluateAll((summaries) =>
        summaries.map((s) => {
          const time = s.querySelector('time')!;
          return {
            oneLine: s.getBoundingClientRect().height < 30,
            cut: time.scrollWidth > time.clientWidth || s.scrollWidth > s.clientWidth,
          };
        }),
      );
      expect(lines).toEqual(Array(4).fill({ oneLine: true, cut: false }));
      const short = olderLines.first().locator('.timer-run__moment-short');
      expect(await short.textContent()).toMatch(/^\d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2}$/);
      expect(await short.getAttribute('title')).toMatch(MOMENT);
      const read = (await olderLines.first().ariaSnapshot()).split('\n');
      expect(read[0]).toMatch(/^- time: [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
      expect(read.slice(1)).toEqual(['- text: ·', '- strong: 2 changed']);
    }
    await page.setViewportSize({ width: 390, height: 900 });
    // A card's place wraps rather than being cut off (one long place per run here adds a line), and each row's foot
    // holds Preview and test beside its other sections (a line for Delete).
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(2750);
    const places = await row
      .locator('.timer-run .event-card__where')
      .evaluateAll((spans) =>
        spans.map((s) => s.getBoundingClientRect().right <= s.closest('.event-card')!.getBoundingClientRect().right + 0.5),
      );
    expect(places.length).toBeGreaterThan(0);
    expect(places.every(Boolean)).toBe(true);

    expect(await seriousViolations(page)).toEqual([]);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('pauses from the row: no "Next run" while paused, Resume prominent; feeds look like fields with "Copied" beside Copy, New link asks first', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite, {
      locale: 'en-GB',
      timezoneId: 'Europe/Berlin',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await createTimer(cookie, 'Jazz nights in Porto');
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = timersPanel(page).locator('.timer-row').first();
    await row.getByText('Next run:').waitFor();

    await row.getByRole('button', { name: 'Pause timer' }).click();
    await row.getByText('You paused this timer; it does not run until you resume it.').waitFor();
    expect(await row.getByText('Next run:').count()).toBe(0);
    const resume = row.getByRole('button', { name: 'Resume' });
    expect(await resume.evaluate((el) => el.classList.contains('button--secondary'))).toBe(false);
    await resume.click();
    await row.getByText('Next run:').waitFor();

    await row.getByText('Calendar and feed').click();
    const atom = row.getByLabel('Atom feed');
    // The feed's address field looks like the page's other fields.
    const style = (el: Element) => {
      const s = getComputedStyle(el);
      return { border: s.borderTopColor, radius: s.borderTopLeftRadius, height: s.minHeight };
    };
    expect(await atom.evaluate(style)).toEqual(await page.getByLabel('Your Question').evaluate(style));
    await row.getByRole('button', { name: 'Copy Atom feed address' }).click();
    const copied = row.locator('.timer-feeds__row', { hasText: 'Atom feed' }).getByRole('status');
    await copied.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await atom.inputValue());
    // Beside the button, on its line.
    const [button, note] = [await row.getByRole('button', { name: 'Copy Atom feed address' }).boundingBox(), await copied.boundingBox()];
    expect(note!.x).toBeGreaterThan(button!.x + button!.width - 1);
    expect(Math.abs(note!.y + note!.height / 2 - (button!.y + button!.height / 2))).toBeLessThan(6);

    // "New link" asks in the page's own dialog, never the browser's confirm box.
    page.on('dialog', (d) => {
      throw new Error(`unexpected browser dialog: ${d.message()}`);
    });
    const ical = row.getByLabel('Calendar (iCal)');
    const oldUrl = await ical.inputValue();
    const newLink = row.getByRole('button', { name: 'New link' });
    await newLink.click();
    const dialog = page.getByRole('dialog', { name: 'Replace this timer’s feed addresses?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      'The old feed addresses stop working at once; calendars subscribed to them stop updating.',
    );
    // The safe choice is focused first, and Tab stays inside the dialog.
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(await focusedText()).toBe('Keep addresses');
    const make = dialog.getByRole('button', { name: 'Make new addresses' });
    expect(await make.evaluate((el) => el.classList.contains('button--danger'))).toBe(true);
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') != null || document.activeElement === document.body)).toBe(
        true,
      );
    }
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await shot(page, `feeds-new-link-dialog-${width}`);
    }
    // Escape keeps the addresses and gives focus back to "New link".
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await newLink.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await ical.inputValue()).toBe(oldUrl);
    // Confirmed: new addresses, the old one answers 404, and focus is back on "New link" beside the status.
    await newLink.click();
    await make.click();
    await row.getByText('New feed addresses made; the old ones no longer work.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // The list is read again after the change and shows the new addresses.
    await page.waitForFunction(([el, old]) => (el as HTMLInputElement).value !== old, [await ical.elementHandle(), oldUrl] as const);
    expect((await fetch(oldUrl)).status).toBe(404);
    expect(await newLink.evaluate((el) => el === document.activeElement)).toBe(true);

    // No element id holds a space (a label's htmlFor must find its field).
    expect(await page.evaluate(() => [...document.querySelectorAll('[id]')].map((el) => el.id).filter((id) => /\s/.test(id)))).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
