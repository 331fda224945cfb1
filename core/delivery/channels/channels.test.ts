import { describe, expect, it } from 'vitest';
import { deliveredEvent } from '../../../dev/harness/found-event';
import type { ChannelMessage } from './digest-lines';
import { discordBody, readDiscordReply } from './discord';
import { ntfyHeader, ntfyRequest, readNtfyReply } from './ntfy';
import { retryAfterMs } from './reply';
import { readSlackReply, slackBody } from './slack';
import { readTeamsReply, teamsBody } from './teams';

const reply = (status: number, body = '', headers: Record<string, string> = {}) => ({ status, body, headers });

const event = deliveredEvent({
  key: 'k1',
  title: '<!channel> Free *pizza* & [tickets](https://phish.example) @everyone',
  starts_at: '2026-12-03T18:30:00+01:00',
  timezone: 'Europe/Berlin',
  venue: 'Kulturbrauerei',
  city: 'Berlin',
  online: false,
  url: 'https://example.org/e/1',
  status: 'moved',
  moved_from: '2026-12-01T18:30:00+01:00',
  new: false,
});

const message = (over: Partial<ChannelMessage> = {}): ChannelMessage => ({
  kind: 'digest',
  timer: { id: 7, question: 'AI meetups in Berlin', website: '', timezone: 'Europe/Berlin' },
  run: { id: 3, scheduledFor: new Date('2026-11-25T08:00:00Z'), status: 'succeeded', error: null },
  events: [event],
  runsUrl: 'https://app.example/#timer-7',
  runUrl: 'https://app.example/#timer-7-run-3',
  ...over,
});

describe('reading each service’s reply as it documents it', () => {
  it('Slack: no_service and channel_not_found stop the channel; invalid_blocks refuses the message; 429 waits as asked', () => {
    expect(readSlackReply(reply(404, 'no_service')).kind).toBe('gone');
    expect(readSlackReply(reply(404, 'channel_not_found')).kind).toBe('gone');
    expect(readSlackReply(reply(410, 'channel_is_archived')).kind).toBe('gone');
    expect(readSlackReply(reply(400, 'invalid_blocks'))).toEqual({
      kind: 'refused',
      sentence: 'Slack refused the message: HTTP 400 (invalid_blocks).',
    });
    expect(readSlackReply(reply(429, 'rate_limited', { 'retry-after': '3' }))).toMatchObject({ kind: 'retry', afterMs: 3000 });
    expect(readSlackReply(reply(503, 'rollup_error'))).toMatchObject({ kind: 'retry', afterMs: null });
    expect(readSlackReply(reply(200, 'ok'))).toEqual({ kind: 'delivered' });
  });

  it('Discord: Unknown Webhook (10015) stops; its JSON retry_after (seconds) is the wait; 204 is delivered', () => {
    expect(readDiscordReply(reply(404, '{"message": "Unknown Webhook", "code": 10015}'))).toEqual({
      kind: 'gone',
      sentence: 'Discord answered “Unknown Webhook” (code 10015): this webhook was deleted.',
    });
    expect(readDiscordReply(reply(429, '{"message": "You are being rate limited.", "retry_after": 1.5, "global": false}'))).toMatchObject({
      kind: 'retry',
      afterMs: 1500,
    });
    expect(readDiscordReply(reply(400, '{"message": "Invalid Form Body", "code": 50035}'))).toEqual({
      kind: 'refused',
      sentence: 'Discord refused the message: HTTP 400 (Invalid Form Body, code 50035).',
    });
    expect(readDiscordReply(reply(204))).toEqual({ kind: 'delivered' });
  });

  it('Teams and ntfy: 202 and 200 are delivered; a deleted or no longer open workflow stops; a refused ntfy token says to check it', () => {
    expect(readTeamsReply(reply(202))).toEqual({ kind: 'delivered' });
    expect(readTeamsReply(reply(404, '{"error": {"code": "WorkflowNotFound", "message": "gone"}}')).kind).toBe('gone');
    // A workflow whose trigger now lets only signed-in users run it refuses every post to the address.
    const unsigned =
      '{"error": {"code": "DirectApiAuthorizationRequired", "message": "The request must be authenticated only by Shared Access scheme."}}';
    expect(readTeamsReply(reply(401, unsigned))).toEqual({
      kind: 'gone',
      sentence:
        'Microsoft Teams refused the address (HTTP 401: DirectApiAuthorizationRequired: The request must be authenticated only by Shared Access scheme.): its workflow no longer lets anyone post to it.',
    });
    expect(readNtfyReply(reply(200, '{"id": "x"}'))).toEqual({ kind: 'delivered' });
    expect(readNtfyReply(reply(403, '{"code": 40301, "http": 403, "error": "forbidden"}'))).toEqual({
      kind: 'refused',
      sentence: "ntfy refused the message (HTTP 403: forbidden, code 40301). Check the topic's access token in Manage Timers.",
    });
  });

  it('Retry-After as an HTTP date is the time until then', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Wed, 25 Nov 2026 10:00:30 GMT' }, now)).toBe(30_000);
    expect(retryAfterMs({}, now)).toBeNull();
  });
});

describe('a website’s words in each service’s message', () => {
  it('Slack: the title’s <, > and & are escaped, so it pings nobody and links nowhere of its choosing', () => {
    const section = JSON.stringify(slackBody(message()).blocks[2]);
    expect(section).toContain('&lt;!channel&gt; Free *pizza* &amp; [tickets](https://phish.example)');
    expect(section).not.toContain('<!channel>');
    expect(section).toContain('*Moved*');
    expect(section).toContain('→');
  });

  it('Discord: pings nobody, and the title’s markdown shows as written', () => {
    const body = discordBody(message());
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds[0]!.fields![0]!.name).toBe('Moved · <!channel> Free *pizza* & [tickets](https://phish.example) @everyone');
    expect(body.embeds[0]!.fields![0]!.value).toContain('[Event page](https://example.org/e/1)');
  });

  it('Teams: an Adaptive Card whose markdown characters from the title are escaped', () => {
    const text = JSON.stringify(teamsBody(message()));
    expect(text).toContain('application/vnd.microsoft.card.adaptive');
    expect(text).toContain('Free \\\\*pizza\\\\* & \\\\[tickets\\\\](https://phish.example)');
  });

  it('ntfy: a title beyond Latin-1 goes as RFC 2047, a test is marked, the token as Bearer', () => {
    expect(ntfyHeader('Konzerte in Köln')).toBe(
      'Konzerte in Köln'.replace(/.+/, (t) => `=?UTF-8?B?${Buffer.from(t).toString('base64')}?=`),
    );
    expect(ntfyHeader('AI meetups')).toBe('AI meetups');
    const req = ntfyRequest(message({ test: true }), 'tk_abc');
    expect(req.headers).toMatchObject({ authorization: 'Bearer tk_abc', tags: 'test_tube', click: 'https://app.example/#timer-7-run-3' });
    expect(Buffer.from(req.headers.title!.slice(10, -2), 'base64').toString()).toBe(
      'Event Finder: Test message — 1 changed event for “AI meetups in Berlin”',
    );
  });
});
