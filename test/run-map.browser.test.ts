import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timerRunsReplySchema } from '../core/contract/event-replies';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';
import { createTilesStandin } from '../dev/standins/tiles';
import { browserSuite, openSignedInHome } from './support/browser-suite';

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
    await until('the tiles and markers', async () => (await pins.count()) === 3);
    await until('tiles from the stand-in', async () => (await box.locator('img.leaflet-tile-loaded').count()) > 0);
    expect(tiles.state.requests).toBeGreaterThan(0);
    // The list is still there, the online event in it though not on the map.
    expect(await page.getByText('Online LLM Office Hours').count()).toBeGreaterThan(0);
    // Each pin's label shows on hover, and on keyboard focus.
    const tooltip = box.locator('.leaflet-tooltip');
    const titles = await pins.evaluateAll((els) => els.map((el) => el.getAttribute('title')));
    expect([...titles].sort()).toEqual([
      'Berlin Crypto Evening (Factory, Berlin)',
      'Munich ML Night (Werk1, München)',
      'Potsdam AI Meetup (Wissenschaftspark, Potsdam)',
    ]);
    await pins.nth(0).hover();
    await until('the hover label', async () => (await tooltip.count()) === 1 && (await tooltip.textContent()) === titles[0]);
    await page.mouse.move(0, 0);
    await pins.nth(1).focus();
    await until('the focus label', async () => (await tooltip.textContent()) === titles[1]);
    expect(await pins.nth(1).getAttribute('tabindex')).toBe('0');
    await shot(page, 'run-map-1280');
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
