import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timersReplySchema } from '../core/contract/timers';
import { afterTimerRun } from '../core/timers/after-run';
import { getTimer } from '../db/timers';
import { deliveredEvent } from '../dev/harness/found-event';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import type { ChannelPost } from '../dev/standins/chat-received';
import { pageCalls } from './support/page-calls';

/**
 * Chat and push channels through the real parts: channels added on the page's API, a run through the worker
 * (Run now) or its after-run step, the deliveries worker, and the stand-ins of Slack, Discord, Teams and ntfy,
 * which accept only what each service documents and answer its own refusals.
 */
describe('a timer posts its digest to Slack, Discord, Teams and ntfy', () => {
  let stack: TestStack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true });
    await stack.startDeliveries();
    ({ cookie } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const { call, runNow } = pageCalls(() => ({ url: stack.url, cookie }));
  const posts = (path: string) => stack.standins.channels.posts.posts.filter((p: ChannelPost) => p.path.startsWith(path));
  const addresses = (tag: string) => ({
    slack: `${stack.standins.url}/slack/services/T0/B0/${tag}`,
    discord: `${stack.standins.url}/discord/api/webhooks/1/${tag}`,
    teams: `${stack.standins.url}/teams/workflows/${tag}/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${tag}`,
    ntfy: `${stack.standins.url}/ntfy/${tag}`,
  });
  const pathOf = (url: string) => new URL(url).pathname;

  async function timerWithChannels(web: string, urls: Record<string, string>) {
    const made = await call('POST', '/api/schedule', dailyTimer({ ques: 'AI evenings in Berlin', web }));
    expect(made.status).toBe(200);
    const id = ((await made.json()) as { id: number }).id;
    expect((await call('PATCH', `/api/timers/${id}`, { email: false })).status).toBe(200);
    for (const [kind, url] of Object.entries(urls)) {
      const res = await call('POST', `/api/timers/${id}/channels`, { kind, url });
      expect(res.status).toBe(201);
      const channel = (await res.json()) as { kind: string; address: string };
      expect(channel.kind).toBe(kind);
      // The address is a secret: the reply shows its origin and last four characters only.
      expect(channel.address).not.toContain(pathOf(url));
      expect(channel.address).toBe(`${stack.standins.url}/…${url.slice(-4)}`);
    }
    return id;
  }

  const settled = (runId: number, n: number) =>
    until(`the run's ${n} deliveries to finish`, async () => {
      const rows = await stack.db.sql<{ channel: string; status: string; attempts: number; error: string | null }[]>`
        select channel, status, attempts, error from deliveries where run_id = ${runId} order by channel`;
      return rows.length === n && rows.every((r) => ['sent', 'failed', 'skipped'].includes(r.status)) ? rows : null;
    });

  /** A run that ended with one new event, through the after-run step with a 20 ms first retry (as a test's deliveries). */
  async function digestRun(id: number): Promise<number> {
    const [row] = await stack.db.sql<{ id: string }[]>`
      insert into timer_runs (timer_id, scheduled_for, status, finished_at) values (${id}, now(), 'succeeded', now()) returning id`;
    const runId = Number(row!.id);
    const event = deliveredEvent({
      key: 'https://example.org/e/1',
      title: 'Applied ML Summit',
      starts_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      timezone: 'Europe/Berlin',
      venue: 'Kulturbrauerei',
      city: 'Berlin',
      online: false,
      url: 'https://example.org/e/1',
      source_url: 'https://example.org/events',
    });
    await afterTimerRun(
      {
        sql: stack.db.sql,
        config: stack.config,
        logger: stack.deps.logger,
        timersQueue: stack.deps.timersQueue,
        deliveriesQueue: stack.deliveriesQueue,
        deliveryBackoffMs: 20,
      },
      { timer: (await getTimer(stack.db.sql, id))!, runId, outcome: 'succeeded', newOrChangedEvents: [event], consecutiveFailures: 0 },
    );
    return runId;
  }

  it('a run of 60 new events: one valid message to each service, cut within its limits, with "and N more" and the run link', async () => {
    const urls = addresses(`sixty${Date.now()}`);
    const id = await timerWithChannels(`${stack.standins.url}/sites/many/60.ics`, urls);
    const run = await runNow(id);
    expect(run).toMatchObject({ status: 'succeeded', new_count: 60 });
    const rows = await settled(run.id, 4);
    expect(rows.map((r) => [r.channel, r.status, r.attempts])).toEqual([
      ['discord', 'sent', 1],
      ['ntfy', 'sent', 1],
      ['slack', 'sent', 1],
      ['teams', 'sent', 1],
    ]);
    const runLink = `${stack.url}/#timer-${id}-run-${run.id}`;

    const [slack] = posts(pathOf(urls.slack));
    expect(posts(pathOf(urls.slack))).toHaveLength(1);
    expect(slack!.status).toBe(200);
    const sBody = slack!.body as { text: string; blocks: { type: string; text?: { text: string } }[] };
    expect(sBody.text).toBe('60 new events for “AI evenings in Berlin”');
    expect(sBody.blocks.length).toBe(50);
    const sEvents = sBody.blocks.filter((b) => b.type === 'section' && b.text!.text.includes('Applied AI Evening'));
    expect(sBody.blocks.at(-1)!.text!.text).toBe(`…and ${60 - sEvents.length} more: <${runLink}|see them all in Event Finder>`);
    expect(sEvents[0]!.text!.text).toContain('*New* · *<https://many-events.example/events/1/applied-ai-evening|Applied AI Evening no. 1');
    for (const b of sBody.blocks) if (b.text) expect(b.text.text.length).toBeLessThanOrEqual(b.type === 'header' ? 150 : 3000);

    const [discord] = posts(pathOf(urls.discord));
    expect(posts(pathOf(urls.discord))).toHaveLength(1);
    expect(discord!.status).toBe(204);
    const dBody = discord!.body as {
      content: string;
      allowed_mentions: { parse: string[] };
      embeds: { title?: string; description?: string; footer?: { text: string }; fields?: { name: string; value: string }[] }[];
    };
    expect(dBody.allowed_mentions).toEqual({ parse: [] });
    expect(dBody.embeds.length).toBeLessThanOrEqual(10);
    const dFields = dBody.embeds.flatMap((e) => e.fields ?? []);
    const chars = dBody.embeds.reduce(
      (n, e) =>
        n +
        (e.title?.length ?? 0) +
        (e.description?.length ?? 0) +
        (e.footer?.text.length ?? 0) +
        (e.fields ?? []).reduce((m, f) => m + f.name.length + f.value.length, 0),
      0,
    );
    expect(chars).toBeLessThanOrEqual(6000);
    expect(dFields.length).toBeGreaterThan(10);
    expect(dFields.length).toBeLessThan(60);
    expect(dBody.embeds[0]!.description).toContain(`…and ${60 - dFields.length} more: [see them all in Event Finder](${runLink})`);
    expect(dFields[0]!.name).toBe('New · Applied AI Evening no. 1: retrieval, agents and evaluation in practice');

    const [teams] = posts(pathOf(urls.teams));
    expect(posts(pathOf(urls.teams))).toHaveLength(1);
    expect(teams!.status).toBe(202);
    expect(Buffer.byteLength(JSON.stringify(teams!.body))).toBeLessThanOrEqual(28 * 1024);
    const card = (teams!.body as { attachments: { contentType: string; content: { body: { type: string; text?: string }[] } }[] })
      .attachments[0]!;
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content.body.at(-1)!.text).toMatch(
      new RegExp(`^…and \\d+ more: \\[see them all in Event Finder\\]\\(${runLink.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)$`),
    );

    const [ntfy] = posts(pathOf(urls.ntfy));
    expect(posts(pathOf(urls.ntfy))).toHaveLength(1);
    expect(ntfy!.status).toBe(200);
    const text = ntfy!.body as string;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text).toMatch(new RegExp(`…and \\d+ more: ${runLink.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
    expect(ntfy!.headers.click).toBe(runLink);
    expect(ntfy!.headers.tags).toBe('calendar');
    expect(JSON.parse(ntfy!.reply).title).toBe('Event Finder: 60 new events for “AI evenings in Berlin”');

    // What make dev shows: the stand-ins' page lists what each received.
    const page = await (await fetch(`${stack.standins.url}/channels/`)).text();
    for (const words of ['Local chat channels', 'slack · HTTP 200', 'discord · HTTP 204', 'teams · HTTP 202', 'ntfy · HTTP 200']) {
      expect(page).toContain(words);
    }
  }, 120_000);

  it('a channel whose service says it is gone (Slack no_service, Discord Unknown Webhook, 404) stops, with a notice on the timer', async () => {
    const urls = addresses('gone');
    const id = await timerWithChannels(`${stack.standins.url}/sites/many/3.ics`, urls);
    const run = await runNow(id);
    const rows = await settled(run.id, 4);
    // Not retried: each failed on its first attempt, for good.
    expect(rows.map((r) => [r.channel, r.status, r.attempts])).toEqual([
      ['discord', 'failed', 1],
      ['ntfy', 'failed', 1],
      ['slack', 'failed', 1],
      ['teams', 'failed', 1],
    ]);
    expect(rows.find((r) => r.channel === 'slack')!.error).toContain('Slack answered “no_service”');
    expect(rows.find((r) => r.channel === 'discord')!.error).toContain('Discord answered “Unknown Webhook” (code 10015)');
    const listed = timersReplySchema.parse(await (await call('GET', '/api/timers')).json()).find((t) => t.id === id)!;
    expect(listed.channels).toHaveLength(4);
    for (const c of listed.channels!)
      expect(c.stopped).toMatch(/We stopped posting to this .* channel; remove it and add its new address in Manage Timers\.$/);
    // A stopped channel gets nothing from the next run.
    const before = stack.standins.channels.posts.posts.length;
    const next = await runNow(id);
    expect(await stack.db.sql`select id from deliveries where run_id = ${next.id}`).toHaveLength(0);
    expect(stack.standins.channels.posts.posts.length).toBe(before);

    // The owner is told once more by email: the next digest carries the sentences; the one after does not.
    expect((await call('PATCH', `/api/timers/${id}`, { email: true })).status).toBe(200);
    const mails = () => stack.standins.smtp.messages.filter((m) => m.subject.includes('AI evenings in Berlin'));
    const told = await digestRun(id);
    expect(await settled(told, 1)).toEqual([expect.objectContaining({ channel: 'email', status: 'sent' })]);
    expect(mails().at(-1)!.text).toContain('We stopped posting to this Slack channel');
    expect(mails().at(-1)!.text).toContain('We stopped posting to this Discord channel');
    const again = await digestRun(id);
    await settled(again, 1);
    expect(mails().at(-1)!.text).not.toContain('We stopped posting');
  }, 120_000);

  it('a Teams workflow that stops letting anyone run it (401) stops its channel like a deleted one', async () => {
    const urls = addresses('closed');
    const id = await timerWithChannels(`${stack.standins.url}/sites/many/3.ics`, { teams: urls.teams });
    // The workflow's trigger was changed to signed-in users only: Teams now refuses the address it gave, as the
    // stand-in refuses an unsigned one.
    await stack.db.sql`update timer_channels set url = ${urls.teams.replace(/&sig=.*$/, '')} where timer_id = ${id}`;
    const run = await runNow(id);
    const [row] = await settled(run.id, 1);
    expect([row!.channel, row!.status, row!.attempts]).toEqual(['teams', 'failed', 1]);
    expect(row!.error).toContain('Microsoft Teams refused the address (HTTP 401: DirectApiAuthorizationRequired');
    const listed = timersReplySchema.parse(await (await call('GET', '/api/timers')).json()).find((t) => t.id === id)!;
    expect(listed.channels![0]!.stopped).toMatch(
      /its workflow no longer lets anyone post to it\. We stopped posting to this Microsoft Teams channel/,
    );
  });

  it('a 429 is retried after the wait the service asked for (Retry-After, Discord’s retry_after), then posts once', async () => {
    const urls = addresses('rate-limited');
    const id = await timerWithChannels(`${stack.standins.url}/sites/many/3.ics`, { slack: urls.slack, discord: urls.discord });
    const runId = await digestRun(id);
    const rows = await settled(runId, 2);
    expect(rows.map((r) => [r.channel, r.status, r.attempts])).toEqual([
      ['discord', 'sent', 2],
      ['slack', 'sent', 2],
    ]);
    for (const url of [urls.slack, urls.discord]) {
      const [limited, posted] = posts(pathOf(url)).slice(-2);
      expect([limited!.status, posted!.status]).toEqual([429, url === urls.slack ? 200 : 204]);
      expect(Date.parse(posted!.receivedAt) - Date.parse(limited!.receivedAt)).toBeGreaterThanOrEqual(1000);
    }
  }, 60_000);

  it('a channel address is a secret: masked on the page, absent for a read token, said to exist in the export; /v1 adds and removes', async () => {
    const urls = addresses(`secret${Date.now()}`);
    const id = await timerWithChannels(`${stack.standins.url}/sites/many/3.ics`, { slack: urls.slack });
    const token = async (scopes: string[]) =>
      ((await (await call('POST', '/api/tokens', { name: scopes.join(' '), scopes })).json()) as { token: string }).token;
    const v1 = async (bearer: string, method: string, path: string, body?: unknown) =>
      fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    const reader = await token(['read']);
    const writer = await token(['timers']);

    const read = (await (await v1(reader, 'GET', '/v1/timers')).json()) as { id: number; channels: { address: string | null }[] }[];
    expect(read.find((t) => t.id === id)!.channels).toEqual([expect.objectContaining({ kind: 'slack', address: null, has_token: false })]);
    expect(JSON.stringify(read)).not.toContain(pathOf(urls.slack));

    // A read token may not add one; a timers token adds an ntfy topic with its access token, and removes it.
    expect((await v1(reader, 'POST', `/v1/timers/${id}/channels`, { kind: 'ntfy', url: urls.ntfy })).status).toBe(403);
    const added = await v1(writer, 'POST', `/v1/timers/${id}/channels`, { kind: 'ntfy', url: urls.ntfy, token: 'tk_standin' });
    expect(added.status).toBe(201);
    const ntfyChannel = (await added.json()) as { id: number; has_token: boolean; address: string };
    expect(ntfyChannel).toMatchObject({ kind: 'ntfy', has_token: true, address: `${stack.standins.url}/…${urls.ntfy.slice(-4)}` });
    const refused = await v1(writer, 'POST', `/v1/timers/${id}/channels`, { kind: 'slack', url: 'http://10.0.0.1/hook' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toContain('private or local network');
    const wrongKind = await v1(writer, 'POST', `/v1/timers/${id}/channels`, { kind: 'telegram', url: urls.slack });
    expect(((await wrongKind.json()) as { detail: string }).detail).toBe('kind must be one of slack, discord, teams or ntfy.');

    const exported = await (await call('GET', '/api/account/export')).text();
    expect(exported).not.toContain(pathOf(urls.slack));
    expect(exported).not.toContain('tk_standin');
    const data = JSON.parse(exported) as { timer_channels: unknown[] };
    expect(data.timer_channels).toContainEqual(expect.objectContaining({ timer_id: id, kind: 'ntfy', has_address: true, has_token: true }));

    expect((await v1(writer, 'DELETE', `/v1/timers/${id}/channels/${ntfyChannel.id}`)).status).toBe(204);
    expect((await v1(writer, 'DELETE', `/v1/timers/${id}/channels/${ntfyChannel.id}`)).status).toBe(404);
  });
});
