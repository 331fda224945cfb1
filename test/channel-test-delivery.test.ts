import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { testDeliveryReplySchema, timerPreviewReplySchema, type TimerPreviewReply } from '../core/contract/test-delivery';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import type { ChannelPost } from '../dev/standins/chat-received';
import { fireScheduled } from './support/runs';
import { pageCalls } from './support/page-calls';

/** What marks a channel's test (core/delivery/channels/digest-lines.ts): the title's prefix and the subtitle's sentence. */
const unmarked = (text: string) =>
  text.replaceAll('Test message — ', '').replaceAll(' This is a test from Event Finder: your channel works.', '');

/** An ntfy header as ntfy reads it: RFC 2047 decoded. */
const headerWords = (value: string) => {
  const encoded = /^=\?UTF-8\?B\?(.*)\?=$/.exec(value);
  return encoded ? Buffer.from(encoded[1]!, 'base64').toString('utf8') : value;
};

/**
 * Preview and "Send a test" for a timer's Slack, Discord, Teams and ntfy channels, through the real api and
 * the services' stand-ins: the test arrives as the preview showed it (marked as a test), a service's refusal
 * comes back in its words, and a test changes nothing (no run, no delivery, no channel stopped).
 */
describe('preview and test send of a timer’s channels', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  async function owner() {
    const { cookie, user } = await createSignedInUser(stack.db.sql);
    const { call } = pageCalls(() => ({ url: stack.url, cookie }));
    return { cookie, user, call };
  }
  type Call = Awaited<ReturnType<typeof owner>>['call'];

  const addresses = (tag: string) => ({
    slack: `${stack.standins.url}/slack/services/T0/B0/${tag}`,
    discord: `${stack.standins.url}/discord/api/webhooks/1/${tag}`,
    teams: `${stack.standins.url}/teams/workflows/${tag}/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${tag}`,
    ntfy: `${stack.standins.url}/ntfy/${tag}`,
  });
  const postsTo = (url: string) => stack.standins.channels.posts.posts.filter((p: ChannelPost) => p.path === new URL(url).pathname);

  /** A timer with email off and these channels; its id and each channel's id by kind. */
  async function timerWithChannels(call: Call, ques: string, channels: { kind: string; url: string; token?: string }[]) {
    const made = await call('POST', '/api/schedule', dailyTimer({ ques, web: `${stack.standins.url}/sites/many/3.ics` }));
    expect(made.status).toBe(200);
    const id = ((await made.json()) as { id: number }).id;
    expect((await call('PATCH', `/api/timers/${id}`, { email: false })).status).toBe(200);
    const ids: Record<string, number> = {};
    for (const c of channels) {
      const res = await call('POST', `/api/timers/${id}/channels`, c);
      expect(res.status).toBe(201);
      ids[c.kind] = ((await res.json()) as { id: number }).id;
    }
    return { id, ids };
  }

  /** A scheduled fire of the timer through the worker's run processor (its deliveries are queued, not sent). */
  async function fire(timerId: number) {
    expect(await fireScheduled(stack, timerId)).toBe('succeeded');
  }

  async function preview(call: Call, id: number): Promise<TimerPreviewReply> {
    const res = await call('GET', `/api/timers/${id}/preview`);
    expect(res.status).toBe(200);
    return timerPreviewReplySchema.parse(await res.json());
  }

  async function test(call: Call, id: number, destination: string) {
    const res = await call('POST', `/api/timers/${id}/test-delivery`, { destination });
    expect(res.status).toBe(200);
    return testDeliveryReplySchema.parse(await res.json());
  }

  /** What a test must leave alone: runs, deliveries, the timer's event memory, its channels' state. */
  async function footprint(timerId: number) {
    const [row] = await stack.db.sql<{ runs: number; deliveries: number; seen: number; stopped: number }[]>`
      select (select count(*)::int from timer_runs where timer_id = ${timerId}) as runs,
             (select count(*)::int from deliveries where timer_id = ${timerId}) as deliveries,
             (select count(*)::int from timer_events where timer_id = ${timerId}) as seen,
             (select count(*)::int from timer_channels where timer_id = ${timerId} and stopped_at is not null) as stopped`;
    return row!;
  }

  it('previews each channel’s message as its service gets it, and a test arrives at each stand-in equal to it, marked as a test', async () => {
    const { call } = await owner();
    const urls = addresses(`preview${Date.now()}`);
    const ntfyUrl = `${stack.standins.url}/ntfy/protected`;
    const timer = await timerWithChannels(call, 'AI evenings previewed', [
      { kind: 'slack', url: urls.slack },
      { kind: 'discord', url: urls.discord },
      { kind: 'teams', url: urls.teams },
      { kind: 'ntfy', url: ntfyUrl, token: 'tk_standin' },
    ]);
    await fire(timer.id);
    const shown = await preview(call, timer.id);
    expect(shown.basis).toBe('news');
    expect(shown.destinations.map((d) => [d.destination, d.kind, d.label, d.unavailable])).toEqual([
      ['email', 'email', 'Email', 'Email is turned off for this timer. Turn it on under Notifications to send a test.'],
      ['webhook', 'webhook', 'Webhook', 'This timer has no webhook address. Save one under Notifications to send a test.'],
      [`channel:${timer.ids.slack}`, 'slack', `Slack · ${stack.standins.url}/…${urls.slack.slice(-4)}`, null],
      [`channel:${timer.ids.discord}`, 'discord', `Discord · ${stack.standins.url}/…${urls.discord.slice(-4)}`, null],
      [`channel:${timer.ids.teams}`, 'teams', `Microsoft Teams · ${stack.standins.url}/…${urls.teams.slice(-4)}`, null],
      [`channel:${timer.ids.ntfy}`, 'ntfy', `ntfy · ${stack.standins.url}/…cted`, null],
    ]);
    // The address is a secret: the preview shows it masked, and the ntfy token only by its last four characters.
    const body = JSON.stringify(shown);
    expect(body).not.toContain('/slack/services');
    expect(body).not.toContain('tk_standin');
    const left = await footprint(timer.id);

    for (const kind of ['slack', 'discord', 'teams', 'ntfy'] as const) {
      const destination = shown.destinations.find((d) => d.kind === kind)!;
      const p = destination.preview!;
      expect(p.format).toBe(kind);
      const url = kind === 'ntfy' ? ntfyUrl : urls[kind];
      const before = postsTo(url).length;
      const sent = await test(call, timer.id, destination.destination);
      const label = { slack: 'Slack', discord: 'Discord', teams: 'Microsoft Teams', ntfy: 'ntfy' }[kind];
      expect(sent).toEqual({
        destination: destination.destination,
        delivered: true,
        message: `Delivered: ${label} at ${new URL(stack.standins.url).host} accepted the test.`,
      });
      const arrived = postsTo(url).slice(before);
      expect(arrived).toHaveLength(1);
      const post = arrived[0]!;
      expect(post.status).toBeLessThan(300);
      if (p.format === 'ntfy') {
        // The same text and headers, the test's title and tag aside; the real token went to ntfy.
        expect(post.headers.authorization).toBe('Bearer tk_standin');
        expect(p.headers.authorization).toBe('Bearer …ndin');
        expect(post.body as string).toContain('This is a test from Event Finder: your channel works.');
        expect(unmarked(post.body as string)).toBe(p.text);
        expect(p.text).toContain('Applied AI Evening no. 1');
        expect(headerWords(post.headers.title!)).toBe(
          `Event Finder: Test message — ${headerWords(p.headers.title).slice('Event Finder: '.length)}`,
        );
        expect(post.headers.click).toBe(p.headers.click);
        expect([p.headers.tags, post.headers.tags]).toEqual(['calendar', 'test_tube']);
      } else {
        if (p.format === 'email' || p.format === 'json') throw new Error(`${kind}'s preview is not a channel's message`);
        expect(JSON.stringify(post.body)).toContain('Test message — ');
        expect(JSON.parse(unmarked(JSON.stringify(post.body)))).toEqual(p.body);
        expect(JSON.stringify(p.body)).toContain('Applied AI Evening no. 1');
      }
    }
    // No search, no run, no delivery, nothing marked as seen, no channel stopped.
    expect(await footprint(timer.id)).toEqual(left);
  }, 120_000);

  it('a test to a gone channel says the service’s words and stops nothing; a 429, an unknown or a stopped channel say what to do', async () => {
    const { call } = await owner();
    const gone = addresses('gone');
    const limited = addresses('rate-limited');
    const timer = await timerWithChannels(call, 'AI evenings gone', [
      { kind: 'slack', url: gone.slack },
      { kind: 'discord', url: gone.discord },
      { kind: 'teams', url: limited.teams },
      { kind: 'ntfy', url: limited.ntfy },
    ]);

    const slack = await test(call, timer.id, `channel:${timer.ids.slack}`);
    expect(slack).toEqual({
      destination: `channel:${timer.ids.slack}`,
      delivered: false,
      message:
        'Slack answered “no_service”: this incoming webhook no longer posts anywhere. Remove this channel and add its new address in Manage Timers.',
    });
    const discord = await test(call, timer.id, `channel:${timer.ids.discord}`);
    expect(discord.delivered).toBe(false);
    expect(discord.message).toBe(
      'Discord answered “Unknown Webhook” (code 10015): this webhook was deleted. Remove this channel and add its new address in Manage Timers.',
    );
    // A test changes nothing on the timer: the channels stay, and the next real digest meets the answer itself.
    expect(await footprint(timer.id)).toEqual({ runs: 0, deliveries: 0, seen: 0, stopped: 0 });

    // A 429 is not retried for a test: its wait is said instead.
    const teams = await test(call, timer.id, `channel:${timer.ids.teams}`);
    expect(teams.delivered).toBe(false);
    expect(teams.message).toMatch(/^Microsoft Teams asked us to slow down \(HTTP 429\).*\. Try the test again in 1 second\.$/);

    const unknown = await call('POST', `/api/timers/${timer.id}/test-delivery`, { destination: 'channel:999999999' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toBe(
      'This timer has no such channel. Reload Manage Timers to see its channels and their ids.',
    );
    // A stopped channel gets no messages, so no test either: its notice says what to do.
    const notice = 'ntfy answered HTTP 404: this address no longer exists. We stopped posting to this ntfy channel.';
    await stack.db.sql`update timer_channels set stopped_at = now(), stopped_notice = ${notice} where id = ${timer.ids.ntfy!}`;
    const shown = await preview(call, timer.id);
    expect(shown.destinations.find((d) => d.kind === 'ntfy')).toMatchObject({ unavailable: notice, preview: null });
    const stopped = await call('POST', `/api/timers/${timer.id}/test-delivery`, { destination: `channel:${timer.ids.ntfy}` });
    expect(stopped.status).toBe(400);
    expect(((await stopped.json()) as { error: string }).error).toBe(notice);
    // Five tests in ten minutes, page, /v1 and MCP together: the sixth waits.
    expect((await call('POST', `/api/timers/${timer.id}/test-delivery`, { destination: `channel:${timer.ids.slack}` })).status).toBe(429);
  }, 120_000);

  it('/v1 and MCP: a timers token sends a channel’s test; a read token’s preview has no addresses', async () => {
    const { call } = await owner();
    const urls = addresses(`agent${Date.now()}`);
    const timer = await timerWithChannels(call, 'AI evenings from an agent', [{ kind: 'discord', url: urls.discord }]);
    expect(
      (await call('PATCH', `/api/timers/${timer.id}`, { webhook_url: `${stack.standins.url}/slack/services/T0/B0/hook` })).status,
    ).toBe(200);
    await fire(timer.id);
    const token = async (scopes: string[]) =>
      createdApiTokenReplySchema.parse(await (await call('POST', '/api/tokens', { name: scopes.join(' '), scopes })).json()).token;
    const v1 = (bearer: string, method: string, path: string, body?: unknown) =>
      fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const reader = await token(['read']);
    const writer = await token(['read', 'timers']);

    const read = timerPreviewReplySchema.parse(await (await v1(reader, 'GET', `/v1/timers/${timer.id}/preview`)).json());
    const channel = read.destinations.find((d) => d.kind === 'discord')!;
    expect(channel.label).toBe('Discord');
    expect(channel.preview).toMatchObject({ format: 'discord', url: null });
    expect(read.destinations.find((d) => d.kind === 'webhook')!.preview).toMatchObject({ format: 'json', url: null });
    expect(JSON.stringify(read)).not.toContain('/api/webhooks/1/');
    expect(JSON.stringify(read)).not.toContain('/slack/services/');
    const full = timerPreviewReplySchema.parse(await (await v1(writer, 'GET', `/v1/timers/${timer.id}/preview`)).json());
    expect(full.destinations.find((d) => d.kind === 'discord')!.preview).toMatchObject({
      url: `${stack.standins.url}/…${urls.discord.slice(-4)}`,
    });

    const sent = await v1(writer, 'POST', `/v1/timers/${timer.id}/test-delivery`, { destination: `channel:${timer.ids.discord}` });
    expect(sent.status).toBe(200);
    expect(testDeliveryReplySchema.parse(await sent.json()).delivered).toBe(true);
    expect((await v1(reader, 'POST', `/v1/timers/${timer.id}/test-delivery`, { destination: 'webhook' })).status).toBe(403);
    const malformed = await v1(writer, 'POST', `/v1/timers/${timer.id}/test-delivery`, { destination: 'channel:slack' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { detail: string }).detail).toBe(
      'Say where to send the test: "destination" is "email", "webhook" or "channel:<id>" (a channel’s id, as the timer’s channels list it).',
    );

    const before = postsTo(urls.discord).length;
    const client = new Client({ name: 'event-finder-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${writer}` } } }),
    );
    try {
      const result = await client.callTool({
        name: 'send_test_delivery',
        arguments: { timer_id: timer.id, destination: `channel:${timer.ids.discord}` },
      });
      expect(result.isError).toBeFalsy();
      expect(testDeliveryReplySchema.parse(result.structuredContent)).toEqual({
        destination: `channel:${timer.ids.discord}`,
        delivered: true,
        message: `Delivered: Discord at ${new URL(stack.standins.url).host} accepted the test.`,
      });
      expect(postsTo(urls.discord).length).toBe(before + 1);
      const wrong = await client.callTool({ name: 'send_test_delivery', arguments: { timer_id: timer.id, destination: 'channel:x' } });
      expect(wrong.isError).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);
});
