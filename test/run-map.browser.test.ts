import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timerRunsReplySchema } from '../core/contract/event-replies';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';
import { createTilesStandin } from '../dev/standins/tiles';
import { browserSuite, openSignedInHome } from './support/browser-suite';

/** Presses Tab until the focused element matches `selector` (at most 12 times), as a keyboard user gets there. */
async function reachByTab(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** A run's in-person events on a map, its tiles from a loopback stand-in (no internet). */
describe('the map of a run', () => {
  const tiles = createTilesStandin();
  const tileServer = createAdaptorServer({ fetch: tiles.app.fetch });
  const env: Record<string, string> = {};
  // Registered before the suite's own beforeAll, so the stack starts with the tile URL in its env.
  beforeAll(async () => {
    await new Promise<void>((resolve) => tileServer.listen(0, '127.0.0.1', resolve));
    env.MAP_TILE_URL = `http://127.0.0.1:${(tileServer.address() as AddressInfo).port}/tiles/{z}/{x}/{y}.png`;
  });
  afterAll(() => new Promise<void>((resolve) => tileServer.close(() => resolve())));
  const suite = browserSuite({ worker: true, env });

  it('shows the placed in-person events on request, beside the list that stays as it was', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite, { viewport: { width: 1280, height: 900 } });
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${suite.stack.url}${path}`, {
        method,
        headers: { cookie, origin: suite.stack.url, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const created = await call(
      'POST',
      '/api/schedule',
      dailyTimer({ ques: 'AI meetups', web: `${suite.stack.standins.url}/sites/around-berlin.html` }),
    );
    const timerId = ((await created.json()) as { id: number }).id;
    const { run_id } = (await (await call('POST', `/api/timers/${timerId}/run`)).json()) as { run_id: number };
    await until(
      'the run to end',
      async () =>
        timerRunsReplySchema
          .parse(await (await call('GET', `/api/timers/${timerId}/runs`)).json())
          .find((r) => r.id === run_id && r.status === 'succeeded'),
      30_000,
    );
    const map = (await (await call('GET', `/api/timers/${timerId}/runs/${run_id}/map`)).json()) as { points: { title: string }[] };
    expect(map.points.map((p) => p.title).sort()).toEqual(['Berlin Crypto Evening', 'Munich ML Night', 'Potsdam AI Meetup']);

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    await page.getByRole('button', { name: 'Show runs' }).click();
    const show = page.getByRole('button', { name: 'Show on a map' });
    await show.waitFor();
    await show.click();
    const box = page.getByRole('region', { name: /^Map of 3 in-person events/ });
    await box.waitFor();
    const pins = box.locator('.run-map__pin');
    const clusters = box.locator('.run-map__cluster');
    // Potsdam sits 26 km from Berlin, a few pixels apart on a map that reaches Munich: one count for the two.
    await until('a pin and a count', async () => (await pins.count()) === 1 && (await clusters.count()) === 1);
    await until('tiles from the stand-in', async () => (await box.locator('img.leaflet-tile-loaded').count()) > 0);
    expect(tiles.state.requests).toBeGreaterThan(0);
    expect(await clusters.textContent()).toBe('2');
    expect(await clusters.getAttribute('aria-label')).toMatch(/^2 events: /);
    expect(await clusters.getAttribute('aria-label')).toContain('Berlin Crypto Evening (Factory, Berlin)');
    expect(await clusters.getAttribute('aria-label')).toContain('Potsdam AI Meetup (Wissenschaftspark, Potsdam)');
    // The list is still there, the online event in it though not on the map.
    expect(await page.getByText('Online LLM Office Hours').count()).toBeGreaterThan(0);
    // A pin's label shows on hover, and on keyboard focus.
    const tooltip = box.locator('.leaflet-tooltip');
    expect(await pins.getAttribute('title')).toBe('Munich ML Night (Werk1, München)');
    await pins.hover();
    await until(
      'the hover label',
      async () => (await tooltip.count()) === 1 && (await tooltip.textContent()) === 'Munich ML Night (Werk1, München)',
    );
    await page.mouse.move(0, 0);
    // The count takes focus from the keyboard, and Enter zooms in to the two events.
    await reachByTab(page, '.run-map__cluster');
    await page.keyboard.press('Enter');
    await until('the two pins apart', async () => {
      const titles = await pins.evaluateAll((els) => els.map((el) => el.getAttribute('title')));
      return (
        titles.includes('Berlin Crypto Evening (Factory, Berlin)') && titles.includes('Potsdam AI Meetup (Wissenschaftspark, Potsdam)')
      );
    });
    const potsdam = box.locator('.run-map__pin[title="Potsdam AI Meetup (Wissenschaftspark, Potsdam)"]');
    await potsdam.focus();
    await until('the focus label', async () => (await tooltip.textContent()) === 'Potsdam AI Meetup (Wissenschaftspark, Potsdam)');
    expect(await potsdam.getAttribute('tabindex')).toBe('0');
    await shot(page, 'run-map-1280');
    expect(unexpectedErrors(errors)).toEqual([]);
  });
  it('shows events in one city as one count reached by keyboard, the cancelled one not plotted', async () => {
    const { page, errors, cookie } = await openSignedInHome(suite, { viewport: { width: 1280, height: 900 } });
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${suite.stack.url}${path}`, {
        method,
        headers: { cookie, origin: suite.stack.url, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    // The changing sample's last stage: four Berlin events, one of them cancelled.
    const web = `${suite.stack.standins.url}/sites/changing/map-cluster.html?stage=3`;
    const timerId = ((await (await call('POST', '/api/schedule', dailyTimer({ ques: 'Berlin meetups', web }))).json()) as { id: number })
      .id;
    const { run_id } = (await (await call('POST', `/api/timers/${timerId}/run`)).json()) as { run_id: number };
    await until(
      'the run to end',
      async () =>
        timerRunsReplySchema
          .parse(await (await call('GET', `/api/timers/${timerId}/runs`)).json())
          .find((r) => r.id === run_id && r.status === 'succeeded'),
      30_000,
    );

    await page.getByRole('button', { name: 'Manage Timers' }).click();
    await page.getByRole('button', { name: 'Show runs' }).click();
    await page.getByRole('button', { name: 'Show on a map' }).click();
    const box = page.getByRole('region', { name: /^Map of 3 in-person events/ });
    await box.waitFor();
    const cluster = box.locator('.run-map__cluster');
    await until('one count for Berlin', async () => (await cluster.count()) === 1);
    expect(await box.locator('.run-map__pin').count()).toBe(0);
    expect(await cluster.textContent()).toBe('3');
    const label = (await cluster.getAttribute('aria-label')) ?? '';
    expect(label).toMatch(/^3 events: /);
    expect(label).not.toContain('Vector Databases Workshop');
    expect(await cluster.getAttribute('role')).toBe('button');

    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await box.scrollIntoViewIfNeeded();
      await shot(page, `run-map-cluster-${width}`);
    }

    // From the keyboard: Tab reaches the count, Enter spreads out the three pins that share Berlin's spot.
    await page.getByRole('button', { name: 'Hide map' }).focus();
    await reachByTab(page, '.run-map__cluster');
    await page.keyboard.press('Enter');
    const pins = box.locator('.run-map__pin');
    await until('the three pins spread out', async () => (await pins.count()) === 3);
    const titles = await pins.evaluateAll((els) => els.map((el) => el.getAttribute('title')));
    expect([...titles].sort()).toEqual([
      'Data Engineering Night (Kulturbrauerei, Berlin)',
      'Open Source AI Meetup (c-base, Berlin)',
      'Robotics Demo Day (Motorwerk, Berlin)',
    ]);
    await reachByTab(page, '.run-map__pin');
    await until('a pin’s label on focus', async () => ((await box.locator('.leaflet-tooltip').textContent()) ?? '').endsWith(', Berlin)'));
    await shot(page, 'run-map-cluster-open-1280');
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
