import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  createTimerInput,
  createTimerOutput,
  editTimerInput,
  editTimerOutput,
  findEventsInput,
  findEventsOutput,
  getSearchInput,
  getSearchOutput,
  listTimerRunsInput,
  listTimerRunsOutput,
  listTimersOutput,
  sendTestDeliveryInput,
  sendTestDeliveryOutput,
  timerEventsInput,
  timerEventsOutput,
} from '../../core/contract/mcp-tools';
import type { SearchReply, TimerRunReply } from '../../core/contract/event-replies';
import type { TestDeliveryReply } from '../../core/contract/test-delivery';
import type { TimerEventsReply } from '../../core/contract/timer-events';
import type { ListedTimer } from '../../core/contract/timers';
import { searchText, timerRunsText, timersText, timerEventsText } from './tool-text';

/** Makes one /v1 call as the MCP request's own token; answers its reply. */
export type V1Call = (method: string, path: string, body?: unknown, signal?: AbortSignal) => Promise<Response>;

/**
 * A tool's result from its /v1 reply: the JSON as structured content (and as text, for clients that read only
 * text), then what it says in words (`words`: events and timers with their dates as people read them), or the
 * reply's sentence as a tool error the agent can read and act on (no credits, missing scope).
 */
async function toolResult<T extends Record<string, unknown>>(
  res: Response,
  words: (reply: T) => string,
  wrap?: (json: unknown) => T,
): Promise<CallToolResult> {
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    // /v1 answers errors as problem details: `detail` is the sentence.
    const problem = json as { detail?: unknown; search_id?: unknown; partial_answer?: unknown } | null;
    const message = typeof problem?.detail === 'string' ? problem.detail : `The call failed (HTTP ${res.status}).`;
    // A search that failed after its answer began names itself and carries the part written (not charged).
    const part =
      typeof problem?.partial_answer === 'string'
        ? `\n\nSearch ${String(problem.search_id)} was not charged. The part of the answer written before the failure:\n\n${problem.partial_answer}`
        : '';
    return { isError: true, content: [{ type: 'text', text: `${message}${part}` }] };
  }
  const structured = wrap ? wrap(json) : (json as T);
  return {
    structuredContent: structured,
    content: [
      { type: 'text', text: JSON.stringify(structured) },
      { type: 'text', text: words(structured) },
    ],
  };
}

/**
 * The MCP tools, each a thin adapter over one /v1 route: the same token, scopes, credits, rate limits and
 * replies as the HTTP API, and no second implementation of any of them (docs/decisions/public-api-and-mcp.md).
 */
export function registerTools(server: McpServer, v1: V1Call): string[] {
  // The names as registered, so the unknown-tool guard (api/mcp/unknown-tool.ts) can never miss one.
  const names: string[] = [];
  const register = ((name: string, ...rest: unknown[]) => {
    names.push(name);
    return (server.registerTool as (...args: unknown[]) => unknown).call(server, name, ...rest);
  }) as McpServer['registerTool'];

  register(
    'find_events',
    {
      title: 'Find events',
      description:
        'Search for conferences, meetups and other events: an answer written for the question, and the events found as data (title, start and end with time zone, venue, city, link). The events are found a moment after the answer: while `events_status` is "pending", read them with get_search. Costs one of the user’s monthly searches. Needs the token’s "search" scope.',
      inputSchema: findEventsInput,
      outputSchema: findEventsOutput,
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async (args, extra) => toolResult<SearchReply>(await v1('POST', '/v1/search', args, extra.signal), searchText),
  );

  register(
    'get_search',
    {
      title: 'Get a search',
      description:
        'One of the user’s searches by id: its answer and the events found, with `events_status` ("pending" while they are still being found, then "done" or "failed"). Its events come whole unless `events_limit` is given; while `events_has_more` is true, pass `events_cursor` as `events_after` for the next ones. `events_left_out` counts events found beyond the 500 a search keeps. Needs the "read" scope.',
      inputSchema: getSearchInput,
      outputSchema: getSearchOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ search_id, events_after, events_limit }, extra) => {
      const query = new URLSearchParams();
      if (events_after !== undefined) query.set('events_after', String(events_after));
      if (events_limit !== undefined) query.set('events_limit', String(events_limit));
      const path = `/v1/searches/${search_id}${query.size ? `?${query}` : ''}`;
      return toolResult<SearchReply>(await v1('GET', path, undefined, extra.signal), searchText);
    },
  );

  register(
    'list_timers',
    {
      title: 'List timers',
      description:
        'The user’s timers: saved questions that run daily or weekly, with their ids (for timer_events), schedule, next run and latest result. Needs the "read" scope.',
      outputSchema: listTimersOutput,
      annotations: { readOnlyHint: true },
    },
    async (extra) =>
      toolResult<{ timers: ListedTimer[] }>(
        await v1('GET', '/v1/timers', undefined, extra.signal),
        (r) => timersText(r.timers),
        (timers) => ({ timers: timers as ListedTimer[] }),
      ),
  );

  register(
    'create_timer',
    {
      title: 'Create a timer',
      description:
        'Saves a question to run daily or weekly at a local time; each run costs one search, and new events are emailed to the user and kept for timer_events. Needs the "timers" scope.',
      inputSchema: createTimerInput,
      outputSchema: createTimerOutput,
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    async (args, extra) =>
      toolResult<ListedTimer>(
        await v1('POST', '/v1/timers', { ...args, weekday: args.weekday ?? null, web: args.web ?? '' }, extra.signal),
        (t) => timersText([t]),
      ),
  );

  register(
    'edit_timer',
    {
      title: 'Edit a timer',
      description:
        'Changes a timer in place: its question, website, daily or weekly schedule, time, day, time zone, or pauses and resumes it; `add_channel` also posts its news to Slack, Discord, Microsoft Teams or ntfy (ask the user for the address the service gave them). Fields left out keep their values; the timer keeps its id, runs, feeds and the events it has already seen. Needs the "timers" scope.',
      inputSchema: editTimerInput,
      outputSchema: editTimerOutput,
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    async ({ timer_id, add_channel, ...fields }, extra) => {
      const words = (t: ListedTimer) => timersText([t]);
      if (add_channel) {
        const added = await v1('POST', `/v1/timers/${timer_id}/channels`, add_channel, extra.signal);
        if (!added.ok) return toolResult<ListedTimer>(added, words);
      }
      const change = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      if (Object.keys(change).length > 0 || !add_channel) {
        return toolResult<ListedTimer>(await v1('PATCH', `/v1/timers/${timer_id}`, change, extra.signal), words);
      }
      // Only a channel was added: the timer as list_timers has it now.
      return toolResult<ListedTimer>(
        await v1('GET', '/v1/timers', undefined, extra.signal),
        words,
        (timers) => (timers as ListedTimer[]).find((t) => t.id === timer_id)!,
      );
    },
  );

  register(
    'send_test_delivery',
    {
      title: 'Send a test message',
      description:
        'Sends a test of a timer’s digest now to its email, its webhook or one of its channels (Slack, Discord, Teams, ntfy), built from its last run and clearly marked as a test, and says whether it arrived or what the receiver answered. Costs no search and changes nothing on the timer; at most 5 tests in 10 minutes. Needs the "timers" scope.',
      inputSchema: sendTestDeliveryInput,
      outputSchema: sendTestDeliveryOutput,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    async ({ timer_id, destination }, extra) =>
      toolResult<TestDeliveryReply>(
        await v1('POST', `/v1/timers/${timer_id}/test-delivery`, { destination }, extra.signal),
        (r) => r.message,
      ),
  );

  register(
    'timer_events',
    {
      title: 'New events of a timer',
      description:
        'The events a timer’s runs found new or changed (moved, cancelled), oldest first. Pass the returned `cursor` as `since` next time to get only what is newer. Needs the "read" scope.',
      inputSchema: timerEventsInput,
      outputSchema: timerEventsOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ timer_id, since }, extra) => {
      const query = since === undefined ? '' : `?since=${encodeURIComponent(String(since))}`;
      return toolResult<TimerEventsReply>(
        await v1('GET', `/v1/timers/${timer_id}/events${query}`, undefined, extra.signal),
        timerEventsText,
      );
    },
  );
  register(
    'list_timer_runs',
    {
      title: 'Runs of a timer',
      description:
        'A timer’s latest 20 runs, newest first: when each ran, its status, its answer and the events it found. `answer` is as Gemini wrote it; `marked_answer` is that answer with each date its checked events contradict marked “[corrected: <the page’s date>]”, and `answer_corrections` lists them. Needs the "read" scope.',
      inputSchema: listTimerRunsInput,
      outputSchema: listTimerRunsOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ timer_id }, extra) =>
      toolResult<{ runs: TimerRunReply[] }>(
        await v1('GET', `/v1/timers/${timer_id}/runs`, undefined, extra.signal),
        (r) => timerRunsText(r.runs),
        (runs) => ({ runs: runs as TimerRunReply[] }),
      ),
  );
  return names;
}
