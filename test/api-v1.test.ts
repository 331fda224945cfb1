import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { searchReplySchema, timerRunsReplySchema } from '../core/contract/event-replies';
import { searchWithEvents } from './support/search-events';
import { searchHistoryReplySchema } from '../core/contract/search-history';
import { timerEventsReplySchema } from '../core/contract/timer-events';
import { listedTimerSchema } from '../core/contract/timers';
import { openPage, shot } from '../dev/harness/browser';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { browserSuite } from './support/browser-suite';
import { openApiChecker } from './support/openapi-check';
import { testDeliveryReplySchema, timerPreviewReplySchema } from '../core/contract/test-delivery';

/**
 * The public API (docs/decisions/public-api-and-mcp.md): a token made in the page's API tokens section drives every /v1 route, and every
 * reply is checked against the OpenAPI document the server serves.
 */
describe('the /v1 API with a token made in the page', () => {
  const suite = browserSuite({ worker: true });

  /** The plans view signed in, its API tokens section opened, a token made with `scopes`; returns the token. */
  async function makeTokenInPage(page: Page, name: string, scopes: string[]): Promise<string> {
    await page.getByText('API tokens', { exact: true }).click();
    await page.getByLabel('Token name').fill(name);
    for (const label of [/^Read your timers/, /^Search/, /^Create, change, run/]) {
      const box = page.getByRole('checkbox', { name: label });
      const want = scopes.some((s) => label.test({ read: 'Read your timers', search: 'Search', timers: 'Create, change, run' }[s]!));
      if ((await box.isChecked()) !== want) await box.click();
    }
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByLabel(/Your new token/);
    await shown.waitFor();
    return shown.inputValue();
  }

  it('makes, lists and revokes tokens in the page, at 390 and 1280 px', async () => {
    const { token: session } = await createSignedInUser(suite.stack.db.sql);
    const { page, errors } = await openPage(suite.browser, 'about:blank');
    await page.context().addCookies([{ name: 'ef_session', value: session, url: suite.stack.url }]);
    await page.goto(`${suite.stack.url}/`);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    const token = await makeTokenInPage(page, 'Open WebUI', ['read', 'search']);
    expect(token).toMatch(/^ef_/);
    // Listed by name and first characters, never the token itself beyond the one time it is shown.
    const list = page.getByRole('list', { name: 'Your API tokens' });
    await list.getByText('Open WebUI').waitFor();
    expect(await list.textContent()).toContain(`${token.slice(0, 7)}…`);
    expect(await list.textContent()).toContain('read, search');
    expect(await list.textContent()).not.toContain(token);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.getByLabel(/Your new token/).scrollIntoViewIfNeeded();
      await shot(page, `api-tokens-${width}`);
    }
    const res = await fetch(`${suite.stack.url}/v1/timers`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    // Revoke asks in the page's own dialog, never the browser's confirm box.
    page.on('dialog', (d) => {
      throw new Error(`unexpected browser dialog: ${d.message()}`);
    });
    const revoke = list.getByRole('button', { name: 'Revoke Open WebUI' });
    await revoke.click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the token “Open WebUI”?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Programs using this token can no longer call the API.');
    // The safe choice is focused first; the destructive one looks it.
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(await focusedText()).toBe('Keep token');
    expect(await dialog.getByRole('button', { name: 'Revoke token' }).evaluate((el) => el.classList.contains('button--danger'))).toBe(true);
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `api-tokens-revoke-dialog-${width}`);
    }
    // Escape keeps the token and gives focus back to its Revoke button.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await revoke.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await fetch(`${suite.stack.url}/v1/timers`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // So does Keep token.
    await revoke.click();
    await dialog.getByRole('button', { name: 'Keep token' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await revoke.evaluate((el) => el === document.activeElement)).toBe(true);

    await revoke.click();
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('You have no API tokens.').waitFor();
    await page.getByText('The token “Open WebUI” is revoked: programs using it can no longer call the API.').waitFor();
    // Its button left the page with it: focus goes to the form for a new token.
    expect(await page.getByLabel('Token name').evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await fetch(`${suite.stack.url}/v1/timers`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('answers every /v1 route as its OpenAPI document says', async () => {
    const { stack } = suite;
    const { token: session } = await createSignedInUser(stack.db.sql);
    const { page } = await openPage(suite.browser, 'about:blank');
    await page.context().addCookies([{ name: 'ef_session', value: session, url: stack.url }]);
    await page.goto(`${stack.url}/`);
    await page.waitForFunction(() => document.querySelectorAll('[data-island]').length === 2);
    const token = await makeTokenInPage(page, 'agent', ['read', 'search', 'timers']);

    const docRes = await fetch(`${stack.url}/api/openapi.json`);
    expect(docRes.status).toBe(200);
    const served = (await docRes.json()) as { openapi: string };
    expect(served.openapi).toBe('3.1.0');
    const doc = openApiChecker(served);

    // The document lists exactly the /v1 routes Hono has.
    const registered = new Set(
      createApp(stack.deps)
        .routes.filter((r) => r.path.startsWith('/v1/') && r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path}`),
    );
    expect([...registered].sort()).toEqual([...doc.operations].sort());

    const call = async (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) => {
      const url = `${stack.url}${path}`;
      const res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { res, body: await doc.check(method, url, res) };
    };
    const site = (path: string) => `${stack.standins.url}/sites/${path}`;

    expect((await call('GET', '/v1/account')).res.status).toBe(200);

    // A search: JSON by default, its events found a moment after the answer...
    const found = await call('POST', '/v1/search', { body: { ques: 'AI events', web: site('berlin-ai.html'), timezone: 'Europe/Berlin' } });
    expect(found.res.status).toBe(200);
    const search = searchReplySchema.parse(found.body);
    expect(search.answer).toBeTruthy();
    expect(search.events_status).toBe('pending');
    // ...the same search as the page's, read back by its id once they are stored.
    const again = await searchWithEvents(stack.url, search.id, { authorization: `Bearer ${token}` }, '/v1');
    expect(again).toMatchObject({ id: search.id, answer: search.answer, events_status: 'done' });
    expect(again.events.map((e) => e.title)).toContain('Applied ML Summit Berlin 2026');
    // ...or streamed, its events then at its id; a grounded answer has its suggestions page beside it.
    const streamed = await call('POST', '/v1/search/stream', { body: { ques: 'AI conferences in Lisbon' } });
    expect(streamed.res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(streamed.body).toMatch(/\S/);
    const streamedId = streamed.res.headers.get('x-search-id');
    const grounded = searchReplySchema.parse((await call('GET', `/v1/searches/${streamedId}`)).body);
    expect(grounded.search_suggestions_url).toBe(`/v1/searches/${streamedId}/suggestions`);
    const suggestions = (await call('GET', grounded.search_suggestions_url!)).res;
    expect(suggestions.status).toBe(200);
    // The page's own, stricter policy, not the app's.
    expect(suggestions.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect((await call('GET', '/v1/searches/999999')).res.status).toBe(404);
    // Both searches in the history, newest first; a page of one leads to the next by its cursor.
    const newest = searchHistoryReplySchema.parse((await call('GET', '/v1/searches?limit=1')).body);
    expect(newest).toMatchObject({ searches: [{ id: Number(streamedId), question: 'AI conferences in Lisbon' }], has_more: true });
    const older = searchHistoryReplySchema.parse((await call('GET', `/v1/searches?before=${newest.cursor}`)).body);
    expect(older.searches.map((s) => [s.id, s.events_count])).toEqual([[search.id, again.events.length]]);
    expect((await call('GET', '/v1/searches?limit=500')).res.status).toBe(400);
    const form = await fetch(`${stack.url}/v1/search`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: 'ques=AI' });
    expect(((await doc.check('POST', form.url, form)) as { detail: string }).detail).toMatch(/Content-Type: application\/json/);
    expect(form.status).toBe(415);
    const bad = await call('POST', '/v1/search', { body: { ques: '' } });
    expect(bad.res.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation', status: 400, detail: expect.stringMatching(/Please enter a question/) });
    expect(bad.res.headers.get('content-type')).toBe('application/problem+json');
    // A reply's field name in a request is refused by name, not taken as a missing question.
    const misnamed = await call('POST', '/v1/search', { body: { question: 'AI events' } });
    expect(misnamed.res.status).toBe(400);
    expect(misnamed.body).toMatchObject({ code: 'validation', field: 'question', detail: expect.stringMatching(/"ques", not "question"/) });

    // A sentence read into a timer's fields (nothing saved), and one no timer can do refused with a sentence.
    const described = await call('POST', '/v1/timers/describe', {
      body: { sentence: 'every Friday at 8pm, AI meetups in Berlin', timezone: 'Europe/Berlin' },
    });
    expect(described.res.status).toBe(200);
    expect((described.body as { timer: unknown }).timer).toMatchObject({ scheduleType: 'weekly', weekday: 'Friday', time: '20:00' });
    const twice = await call('POST', '/v1/timers/describe', { body: { sentence: 'twice a week, AI meetups', timezone: 'Europe/Berlin' } });
    expect(twice.res.status).toBe(400);
    expect((await call('GET', '/v1/timers')).body).toEqual([]);

    // Timers: made from fields, listed with an ETag, changed, run, and deleted.
    const made = await call('POST', '/v1/timers', { body: dailyTimer({ ques: 'AI events in Berlin', web: site('changing/api-v1.html') }) });
    expect(made.res.status).toBe(201);
    const timer = listedTimerSchema.parse(made.body);
    expect((await call('POST', '/v1/timers', { body: { ...dailyTimer(), time: '25:00' } })).res.status).toBe(400);
    expect((await call('POST', '/v1/timers', { body: { ...dailyTimer(), scheduleType: 42 } })).res.status).toBe(400);
    expect((await call('POST', '/v1/timers', { body: { ...dailyTimer(), ques: 'x'.repeat(2_000_000) } })).res.status).toBe(413);
    const listed = await call('GET', '/v1/timers');
    const etag = listed.res.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(listed.res.headers.get('cache-control')).toBe('private, no-cache');
    expect((await call('GET', '/v1/timers', { headers: { 'if-none-match': etag! } })).res.status).toBe(304);
    const paused = await call('PATCH', `/v1/timers/${timer.id}`, { body: { paused: true } });
    expect(paused.body).toMatchObject({ id: timer.id, paused: true });
    // Changed, so the old ETag no longer matches.
    expect((await call('GET', '/v1/timers', { headers: { 'if-none-match': etag! } })).res.status).toBe(200);
    expect((await call('PATCH', `/v1/timers/${timer.id}`, { body: { paused: 'yes' } })).res.status).toBe(400);

    const runNow = async () => {
      const run = await call('POST', `/v1/timers/${timer.id}/run`);
      expect(run.res.status).toBe(202);
      const runId = (run.body as { run_id: number }).run_id;
      return until(
        'the run to end',
        async () =>
          timerRunsReplySchema
            .parse((await call('GET', `/v1/timers/${timer.id}/runs`)).body)
            .find((r) => r.id === runId && r.status !== 'running'),
        30_000,
      );
    };
    expect((await runNow()).status).toBe('succeeded');

    // What is new since a cursor: the first run's three events, then nothing, then only what the next run added.
    const first = timerEventsReplySchema.parse((await call('GET', `/v1/timers/${timer.id}/events`)).body);
    expect(first.events).toHaveLength(3);
    expect(first.events.every((e) => e.new && !e.changed)).toBe(true);
    const none = await call('GET', `/v1/timers/${timer.id}/events?since=${first.cursor}`);
    expect(timerEventsReplySchema.parse(none.body)).toEqual({ events: [], cursor: first.cursor, has_more: false });
    const unchanged = none.res.headers.get('etag')!;
    expect(
      (await call('GET', `/v1/timers/${timer.id}/events?since=${first.cursor}`, { headers: { 'if-none-match': unchanged } })).res.status,
    ).toBe(304);
    expect((await runNow()).status).toBe('succeeded');
    const next = timerEventsReplySchema.parse((await call('GET', `/v1/timers/${timer.id}/events?since=${first.cursor}`)).body);
    expect(next.events.map((e) => [e.title, e.new])).toEqual([[expect.any(String), true]]);
    expect(Number(next.cursor)).toBeGreaterThan(Number(first.cursor));
    expect((await call('GET', `/v1/timers/${timer.id}/events?since=soon`)).res.status).toBe(400);

    // The next digest previewed from the last run, and a test of it sent to the timer's email.
    expect(timerPreviewReplySchema.parse((await call('GET', `/v1/timers/${timer.id}/preview`)).body).basis).toBe('news');
    const tested = await call('POST', `/v1/timers/${timer.id}/test-delivery`, { body: { destination: 'email' } });
    expect(testDeliveryReplySchema.parse(tested.body).delivered).toBe(true);

    // A Slack channel on the timer (the stand-in's address), masked in the reply; removed again.
    const slackUrl = `${stack.standins.url}/slack/services/T0/B0/api-v1`;
    const channel = await call('POST', `/v1/timers/${timer.id}/channels`, { body: { kind: 'slack', url: slackUrl } });
    expect(channel.res.status).toBe(201);
    expect(channel.body).toMatchObject({ kind: 'slack', address: `${stack.standins.url}/…i-v1` });
    expect((await call('POST', `/v1/timers/${timer.id}/channels`, { body: { kind: 'slack' } })).res.status).toBe(400);
    const channelId = (channel.body as { id: number }).id;
    expect((await call('DELETE', `/v1/timers/${timer.id}/channels/${channelId}`)).res.status).toBe(204);
    expect((await call('DELETE', `/v1/timers/${timer.id}/channels/${channelId}`)).res.status).toBe(404);

    expect((await call('DELETE', `/v1/timers/${timer.id}`)).res.status).toBe(204);
    expect((await call('DELETE', `/v1/timers/${timer.id}`)).res.status).toBe(404);
    expect((await call('GET', `/v1/timers/${timer.id}/events`)).res.status).toBe(404);

    // A call without a token is refused as the document says.
    const anonymous = await fetch(`${stack.url}/v1/timers`);
    await doc.check('GET', `${stack.url}/v1/timers`, anonymous);
    expect(anonymous.status).toBe(401);

    // Every operation was driven.
    const driven = new Set([...doc.checked].map((c) => c.split(' ').slice(0, 2).join(' ')));
    expect([...doc.operations].filter((op) => !driven.has(op))).toEqual([]);
  });
});
