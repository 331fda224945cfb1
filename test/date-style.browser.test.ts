import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { feedUrlsSchema, searchReplySchema } from '../core/contract/event-replies';
import { searchHistoryReplySchema } from '../core/contract/search-history';
import { renderDigest } from '../core/delivery/email/digest';
import { webhookText } from '../core/delivery/webhook-payload';
import { shot, unexpectedErrors } from '../dev/harness/browser';
import { seriousViolations } from './support/axe';
import { appFetch } from './support/billing';
import { browserSuite, openSignedInHome } from './support/browser-suite';
import { seedRuns } from './support/seed-runs';

// The sample site's summit, 09:00 on 18 June to 18:00 on 19 June 2026 in Berlin, written by hand in the one style
// (docs/decisions/time.md): a range, as it ends on a later day.
const WHEN = 'Thu 18 Jun 2026, 09:00 – Fri 19 Jun 2026, 18:00';
const SHORT = '18 Jun, 09:00 – 19 Jun, 18:00';
const TITLE = 'Applied ML Summit Berlin 2026';
// A day that depends on today (a next run, a token's): the style's shape.
const day = '[A-Z][a-z]{2} \\d{1,2} [A-Z][a-z]{2} \\d{4}';

describe('one date style on every surface (Chromium)', () => {
  const suite = browserSuite();

  it('writes one event the same way on its card, its run line, in the email, the webhook, the Atom feed and the MCP text; days alike', async () => {
    const { stack } = suite;
    const { page, errors, cookie } = await openSignedInHome(suite, { locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    await page.getByLabel('Your Question').fill('AI events in Berlin');
    await page.getByLabel('Website URL').fill(`${stack.standins.url}/sites/berlin-ai.html`);
    await page.getByRole('button', { name: 'Search Events' }).click();

    // The page's card, in the viewer's zone (Berlin, the event's too): no zone named, as it is the viewer's own.
    const list = page.getByRole('region', { name: 'Events in this answer' });
    await list.waitFor();
    const card = list.getByRole('listitem').filter({ hasText: TITLE });
    expect(await card.locator('.event-card__when time').textContent()).toBe(WHEN);

    // The same event as the server stored it.
    const history = searchHistoryReplySchema.parse(await (await appFetch(stack, cookie, '/api/searches')).json());
    const searchId = history.searches[0]!.id;
    const search = searchReplySchema.parse(await (await appFetch(stack, cookie, `/api/searches/${searchId}`)).json());
    const event = { ...search.events.find((e) => e.title === TITLE)!, new: true };
    expect(event.timezone).toBe('Europe/Berlin');

    // A Berlin timer whose run found it: its line in Manage Timers.
    const made = await appFetch(stack, cookie, '/api/schedule', {
      method: 'POST',
      body: JSON.stringify({
        scheduleType: 'daily',
        time: '09:00',
        weekday: '',
        ques: 'AI events in Berlin',
        web: '',
        timezone: 'Europe/Berlin',
        filters: { window: { from: '2026-12-20', to: '2027-01-05' }, place: null, attendance: 'both', exclude: [] },
      }),
    });
    const timerId = ((await made.json()) as { id: number }).id;
    await seedRuns(stack.db.sql, timerId, [{ hoursAgo: 1, events: [event] }]);
    await page.getByRole('button', { name: 'Manage Timers' }).click();
    const row = page.getByRole('region', { name: 'Your Timers' }).locator('.timer-row');
    await row.getByRole('button', { name: 'Show runs' }).click();
    const line = row.locator('.timer-run--latest .event-card').filter({ hasText: TITLE });
    await line.waitFor();
    // The timer's filter window, in the same style.
    expect(await row.getByText('Filters: Sun 20 Dec 2026 – Tue 5 Jan 2027', { exact: true }).count()).toBe(1);
    expect(await line.locator('.event-card__date-long').textContent()).toBe(WHEN);
    expect(await line.locator('.event-card__date-short').textContent()).toBe(SHORT);
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      // A phone shows the short one (docs/decisions/time.md); the place stays on the card. Each end of the range is on one
      // line: a range breaks at its dash, never inside a date.
      expect(await line.locator('.event-card__date-short').isVisible()).toBe(width < 560);
      expect(await line.locator('.event-card__where').textContent()).toBe(' · bcc Berlin Congress Center');
      for (const end of await page.locator('.event-card__when .date-end').all()) {
        const box = await end.boundingBox();
        if (box && box.width > 1) expect(box.height).toBeLessThan(30);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `date-style-run-${width}`);
    }
    expect(await seriousViolations(page)).toEqual([]);

    // The timer's email and webhook, built as its deliveries build them: in the timer's zone, named once above
    // the email's events and after each webhook line.
    const mail = renderDigest({
      question: 'AI events in Berlin',
      timezone: 'Europe/Berlin',
      events: [event],
      runsUrl: `${stack.url}/#timer-${timerId}`,
      unsubscribeUrl: `${stack.url}/unsubscribe/t`,
    });
    expect(mail.text).toContain('Dates are in Europe/Berlin, the time zone of your timer.');
    // The place, too, reads as the card reads it (core/events/event-place.ts).
    expect(mail.text).toContain(`[New] ${TITLE}\n  ${WHEN}\n  bcc Berlin Congress Center\n`);
    expect(mail.html).toContain(`<div style="font-size:15px">${WHEN}</div>`);
    const webhook = webhookText({
      kind: 'digest',
      timer: { id: timerId, question: 'AI events in Berlin', website: '', timezone: 'Europe/Berlin' },
      run: { id: 1, scheduledFor: new Date(), status: 'succeeded', error: null },
      events: [event],
      runsUrl: `${stack.url}/#timer-${timerId}`,
    });
    expect(webhook.split('\n')[1]).toBe(
      `• [New] ${TITLE} — ${WHEN} (Europe/Berlin) (From 127.0.0.1) — https://ai-events.example/events/applied-ml-summit`,
    );

    // The Atom feed the server serves for the timer.
    const feeds = feedUrlsSchema.parse(
      await (await appFetch(stack, cookie, `/api/timers/${timerId}/feed-token`, { method: 'POST' })).json(),
    );
    const atom = new XMLParser().parse(await (await fetch(feeds.atom_url!)).text());
    expect(atom.feed.entry.content).toContain(`>${TITLE} · ${WHEN} (Europe/Berlin) · bcc Berlin Congress Center</a>`);

    // The MCP tools' text, for the search and for the timer's events: each event in its own zone, named.
    const tokenReply = await appFetch(stack, cookie, '/api/tokens', {
      method: 'POST',
      body: JSON.stringify({ name: 'Agent', scopes: ['read'] }),
    });
    const { token } = createdApiTokenReplySchema.parse(await tokenReply.json());
    const client = new Client({ name: 'date-style-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    const words = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      return (result.content as { type: string; text: string }[])[1]!.text;
    };
    const line0 = `• ${TITLE} — ${WHEN} (Europe/Berlin) — bcc Berlin Congress Center — https://ai-events.example/events/applied-ml-summit`;
    expect((await words('get_search', { search_id: searchId })).split('\n')).toContain(line0);
    expect((await words('timer_events', { timer_id: timerId })).split('\n')).toEqual([line0]);
    // A timer's next run in its own zone, named the same way.
    expect(await words('list_timers', {})).toMatch(
      new RegExp(
        `^Timer ${timerId}: "AI events in Berlin", every day at 09:00 \\(Europe/Berlin\\); next run ${day}, 09:00 \\(Europe/Berlin\\)$`,
      ),
    );
    await client.close();

    // The token's own days, in the same style: made and last used today.
    await page.getByRole('button', { name: 'Subscription' }).click();
    await page.getByText('API tokens', { exact: true }).click();
    const tokenLine = page.getByRole('list', { name: 'Your API tokens' }).locator('.api-tokens__meta');
    await tokenLine.waitFor();
    expect(await tokenLine.textContent()).toMatch(new RegExp(`^read · made ${day} · last used ${day}$`));
    for (const width of [320, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, `date-style-tokens-${width}`);
    }
    expect(await seriousViolations(page)).toEqual([]);
    expect(unexpectedErrors(errors)).toEqual([]);
  }, 90_000);
});
