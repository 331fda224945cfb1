import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { timerRunsReplySchema } from '../core/contract/event-replies';
import { findEventsOutput, getSearchOutput, listTimerRunsOutput, listTimersOutput, timerEventsOutput } from '../core/contract/mcp-tools';
import { listedTimerSchema } from '../core/contract/timers';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';

/** The MCP server at /mcp (docs/decisions/public-api-and-mcp.md), driven by the SDK's own client with a token made through the page's route. */
describe('the MCP server', () => {
  let stack: TestStack;
  let cookie: string;
  let userId: number;
  const clients: Client[] = [];
  beforeAll(async () => {
    stack = await startTestStack({ worker: true, env: { MCP_ALLOWED_ORIGINS: 'https://agent.example' } });
    ({
      cookie,
      user: { id: userId },
    } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stack?.close();
  });

  async function makeToken(scopes: string[]): Promise<string> {
    const res = await fetch(`${stack.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, origin: stack.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Claude', scopes }),
    });
    expect(res.status).toBe(201);
    return createdApiTokenReplySchema.parse(await res.json()).token;
  }

  async function connect(token: string | null): Promise<Client> {
    const client = new Client({ name: 'event-finder-test', version: '1.0.0' });
    const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  const site = (path: string) => `${stack.standins.url}/sites/${path}`;

  it('lists its tools, makes a timer and gets only its new events, as structured content', async () => {
    const token = await makeToken(['read', 'search', 'timers']);
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'create_timer',
      'edit_timer',
      'find_events',
      'get_search',
      'list_timer_runs',
      'list_timers',
      'send_test_delivery',
      'timer_events',
    ]);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');

    const made = await client.callTool({
      name: 'create_timer',
      arguments: {
        ques: 'AI events in Berlin',
        web: site('changing/mcp.html'),
        scheduleType: 'daily',
        time: '03:00',
        timezone: 'Europe/Berlin',
      },
    });
    expect(made.isError).toBeFalsy();
    const timer = listedTimerSchema.parse(made.structuredContent);
    const listed = listTimersOutput.parse((await client.callTool({ name: 'list_timers' })).structuredContent);
    expect(listed.timers.map((t) => t.id)).toEqual([timer.id]);

    // A run, through the HTTP API with the same token (an agent's "run now").
    const runNow = async () => {
      const res = await fetch(`${stack.url}/v1/timers/${timer.id}/run`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(202);
      const { run_id } = (await res.json()) as { run_id: number };
      await until(
        'the run to end',
        async () => {
          const res = await fetch(`${stack.url}/v1/timers/${timer.id}/runs`, { headers: { authorization: `Bearer ${token}` } });
          return timerRunsReplySchema.parse(await res.json()).find((r) => r.id === run_id && r.status === 'succeeded');
        },
        30_000,
      );
    };
    await runNow();
    const events = (since?: string) =>
      client.callTool({ name: 'timer_events', arguments: { timer_id: timer.id, ...(since ? { since } : {}) } });
    const first = timerEventsOutput.parse((await events()).structuredContent);
    expect(first.events).toHaveLength(3);
    expect(first.events.every((e) => e.new && e.run_id > 0 && e.key)).toBe(true);
    expect(timerEventsOutput.parse((await events(first.cursor)).structuredContent).events).toEqual([]);
    // The same cursor handed back as a number, as agents often do, means the same.
    const numeric = await client.callTool({ name: 'timer_events', arguments: { timer_id: timer.id, since: Number(first.cursor) } });
    expect(numeric.isError).toBeFalsy();
    expect(timerEventsOutput.parse(numeric.structuredContent).events).toEqual([]);
    await runNow();
    const next = timerEventsOutput.parse((await events(first.cursor)).structuredContent);
    expect(next.events).toHaveLength(1);
    expect(next.events[0]!.new).toBe(true);
    expect(first.events.map((e) => e.key)).not.toContain(next.events[0]!.key);

    // Its runs, newest first, as GET /v1/timers/{id}/runs gives them, and in words.
    const runs = await client.callTool({ name: 'list_timer_runs', arguments: { timer_id: timer.id } });
    expect(runs.isError).toBeFalsy();
    const listedRuns = listTimerRunsOutput.parse(runs.structuredContent).runs;
    const v1Runs = await fetch(`${stack.url}/v1/timers/${timer.id}/runs`, { headers: { authorization: `Bearer ${token}` } });
    expect(listedRuns).toEqual(timerRunsReplySchema.parse(await v1Runs.json()));
    expect(listedRuns.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    const words = (runs.content as { text: string }[])[1]!.text.split('\n');
    expect(words).toHaveLength(2);
    expect(words[0]).toMatch(
      new RegExp(`^Run ${listedRuns[0]!.id}, \\w{3} \\d{1,2} \\w{3} \\d{4}, \\d\\d:\\d\\d \\(UTC\\): succeeded: \\d+ events?, 1 new`),
    );
    // A timer not among the user's is not found, as on /v1.
    const other = await client.callTool({ name: 'list_timer_runs', arguments: { timer_id: 2_000_000_000 } });
    expect(other.isError).toBe(true);
  });

  it('edit_timer adds a Slack channel (alone or with other changes), and says why an address is refused', async () => {
    const token = await makeToken(['timers', 'read']);
    const client = await connect(token);
    const made = await client.callTool({
      name: 'create_timer',
      arguments: { ques: 'AI meetups for the team', scheduleType: 'daily', time: '08:00', timezone: 'Europe/Berlin' },
    });
    const timer = listedTimerSchema.parse(made.structuredContent);
    const slack = `${stack.standins.url}/slack/services/T0/B0/mcp`;
    const added = await client.callTool({
      name: 'edit_timer',
      arguments: { timer_id: timer.id, add_channel: { kind: 'slack', url: slack } },
    });
    expect(added.isError).toBeFalsy();
    const withSlack = listedTimerSchema.parse(added.structuredContent);
    expect(withSlack.channels).toEqual([expect.objectContaining({ kind: 'slack', address: `${stack.standins.url}/…/mcp` })]);
    expect((added.content as { text: string }[])[1]!.text).toContain('posts to Slack');

    const both = await client.callTool({
      name: 'edit_timer',
      arguments: { timer_id: timer.id, time: '09:00', add_channel: { kind: 'ntfy', url: `${stack.standins.url}/ntfy/mcp-team` } },
    });
    expect(listedTimerSchema.parse(both.structuredContent)).toMatchObject({
      time: '09:00',
      channels: [{ kind: 'slack' }, { kind: 'ntfy' }],
    });

    const refused = await client.callTool({
      name: 'edit_timer',
      arguments: { timer_id: timer.id, add_channel: { kind: 'discord', url: 'http://10.0.0.1/api/webhooks/1/x' } },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toContain('points to a private or local network');
    // The other tests count this user's timers.
    const gone = await fetch(`${stack.url}/v1/timers/${timer.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(gone.status).toBe(204);
  });

  it('finds events, charged like a search on the page; they come a moment after the answer, read with get_search', async () => {
    const client = await connect(await makeToken(['search', 'read']));
    const used = async () => (await stack.db.sql<{ n: number }[]>`select searches_used as n from accounts where user_id = ${userId}`)[0]!.n;
    const before = await used();
    const result = await client.callTool({
      name: 'find_events',
      arguments: { ques: 'AI events', web: site('berlin-ai.html'), timezone: 'Europe/Berlin' },
    });
    expect(result.isError).toBeFalsy();
    const found = findEventsOutput.parse(result.structuredContent);
    expect(found.answer).toContain('I found 3 events');
    expect(found.events_status).toBe('pending');
    const ended = await until('the events of the search', async () => {
      const read = getSearchOutput.parse(
        (await client.callTool({ name: 'get_search', arguments: { search_id: found.id } })).structuredContent,
      );
      return read.events_status === 'pending' ? null : read;
    });
    expect(ended.events_status).toBe('done');
    expect(ended.events.map((e) => e.title)).toContain('Applied ML Summit Berlin 2026');
    // A page at a time: the first event, then the rest after its cursor.
    const page = async (args: Record<string, unknown>) =>
      getSearchOutput.parse((await client.callTool({ name: 'get_search', arguments: { search_id: found.id, ...args } })).structuredContent);
    const firstPage = await page({ events_limit: 1 });
    expect(firstPage.events.map((e) => e.key)).toEqual([ended.events[0]!.key]);
    expect(firstPage).toMatchObject({ events_has_more: true, events_cursor: '0', events_left_out: 0 });
    const rest = await page({ events_after: 0 });
    expect(rest.events.map((e) => e.key)).toEqual(ended.events.slice(1).map((e) => e.key));
    expect(rest.events_has_more).toBe(false);
    const [search] = await stack.db.sql`select status, timer_run_id from searches where id = ${found.id}`;
    expect(search).toEqual({ status: 'answered', timer_run_id: null });
    expect(await used()).toBe(before + 1);
  });

  it('refuses an unknown time zone in find_events with a sentence, before any search is charged', async () => {
    const client = await connect(await makeToken(['search']));
    const used = async () => (await stack.db.sql<{ n: number }[]>`select searches_used as n from accounts where user_id = ${userId}`)[0]!.n;
    const before = await used();
    const result = await client.callTool({ name: 'find_events', arguments: { ques: 'AI events', timezone: 'Europe/Atlantis' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/The time zone \\"Europe\/Atlantis\\" is not one we know/);
    expect(await used()).toBe(before);
  });

  it('says what is missing when the token lacks a scope, and refuses a connection without a token', async () => {
    const client = await connect(await makeToken(['read']));
    const refused = await client.callTool({
      name: 'create_timer',
      arguments: { ques: 'x', scheduleType: 'daily', time: '09:00', timezone: 'UTC' },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/needs the \\"timers\\" scope/);
    await expect(connect(null)).rejects.toThrow(/401|personal API token/);
  });

  /** One JSON-RPC message POSTed as a client would, with extra headers. */
  const rpc = (token: string, message: object, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, ...message }),
    });
  const initializeMessage = {
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };

  it('refuses a web page of another origin with 403 (DNS rebinding), and takes its own, a listed one or none', async () => {
    const token = await makeToken(['read']);
    for (const message of [{ method: 'tools/list' }, { method: 'tools/call', params: { name: 'list_timers', arguments: {} } }]) {
      const foreign = await rpc(token, message, { origin: 'http://evil.example' });
      expect(foreign.status).toBe(403);
      const body = (await foreign.json()) as { error: { message: string }; id: null };
      expect(body.id).toBeNull();
      expect(body.error.message).toMatch(/http:\/\/evil\.example.*MCP_ALLOWED_ORIGINS/);
      for (const origin of [stack.url, 'https://agent.example', undefined]) {
        const res = await rpc(token, message, origin ? { origin } : {});
        expect(res.status).toBe(200);
      }
    }
    // Before the token is even looked at.
    expect((await rpc('ef_not_a_token', { method: 'tools/list' }, { origin: 'http://evil.example' })).status).toBe(403);
  });

  it('answers a call of an unknown tool with a JSON-RPC error, and advertises no tools.listChanged it never sends', async () => {
    const token = await makeToken(['read']);
    const res = await rpc(token, { method: 'tools/call', params: { name: 'delete_everything', arguments: {} } });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { id: number; error?: { code: number; message: string }; result?: unknown };
    expect(reply.result).toBeUndefined();
    expect(reply.id).toBe(7);
    expect(reply.error!.code).toBe(-32602);
    // Without the SDK's "MCP error -32602: " prefix, which every client adds again when it shows the message.
    expect(reply.error!.message).toMatch(/^Unknown tool: delete_everything\. The tools are find_events, /);
    const init = (await (await rpc(token, initializeMessage)).json()) as { result: { capabilities: Record<string, unknown> } };
    expect(init.result.capabilities.tools).toEqual({});
  });

  it('keeps no session: no session id, and any request stands on its own', async () => {
    const token = await makeToken(['read']);
    const initialize = await fetch(`${stack.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
      }),
    });
    expect(initialize.status).toBe(200);
    expect(initialize.headers.get('mcp-session-id')).toBeNull();
    // A tools/call with no initialize before it on this "connection" is answered all the same.
    const call = await fetch(`${stack.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_timers', arguments: {} } }),
    });
    expect(call.status).toBe(200);
    const reply = (await call.json()) as { result: { structuredContent: unknown } };
    expect(listTimersOutput.parse(reply.result.structuredContent).timers).toHaveLength(1);
    expect((await fetch(`${stack.url}/mcp`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
  });
});
