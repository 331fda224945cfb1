import { describe, expect, it } from 'vitest';
import type { Event } from '../../core/contract/event';
import { CHANNEL_KINDS, CHANNEL_SERVICES } from '../../core/delivery/channels/channel';
import type { ChannelMessage } from '../../core/delivery/channels/digest-lines';
import { createChatChannelsStandin } from './chat-channels';

const PATHS = {
  slack: '/slack/services/T0/B0/unit',
  discord: '/discord/api/webhooks/1/unit',
  teams: '/teams/workflows/unit/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=unit',
  ntfy: '/ntfy/unit',
} as const;

const events = (n: number): Event[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `e${i}`,
    title: `${'Very long conference title about retrieval, agents and evaluation '.repeat(3)}${i}`,
    starts_at: '2026-12-03T18:30:00+01:00',
    ends_at: null,
    all_day: false,
    timezone: 'Europe/Berlin',
    timezone_source: null,
    venue: 'Kulturbrauerei, Schönhauser Allee 36',
    city: 'Berlin',
    online: true,
    url: `https://example.org/events/${i}/${'path/'.repeat(20)}`,
    source_url: null,
    status: i % 3 === 0 ? 'cancelled' : 'scheduled',
    verification: { status: 'corrected', source_url: 'https://example.org/e', model_starts_at: '2026-12-03T17:30:00+01:00' },
    new: i % 2 === 0,
  }));

const message = (over: Partial<ChannelMessage>): ChannelMessage => ({
  kind: 'digest',
  timer: { id: 1, question: 'AI conferences in Europe '.repeat(10), website: '', timezone: 'Europe/Berlin' },
  run: { id: 2, scheduledFor: new Date('2026-11-25T08:00:00Z'), status: 'failed', error: 'The website answered HTTP 500.' },
  events: [],
  runsUrl: 'https://app.example/#timer-1',
  runUrl: 'https://app.example/#timer-1-run-2',
  ...over,
});

/** Each service's message posted to its stand-in, which accepts only what the service documents. */
async function post(kind: (typeof CHANNEL_KINDS)[number], m: ChannelMessage) {
  const { app } = createChatChannelsStandin();
  const { headers, body } = CHANNEL_SERVICES[kind].request(m, kind === 'ntfy' ? 'tk_x' : null);
  const res = await app.request(PATHS[kind], { method: 'POST', headers, body });
  return { status: res.status, reply: await res.text() };
}

describe('every message each service gets is one its stand-in accepts', () => {
  const cases: [string, ChannelMessage][] = [
    ['a digest of 1 event', message({ events: events(1) })],
    ['a digest of 200 long events', message({ events: events(200) })],
    ['a test', message({ events: events(3), test: true })],
    ['the pause alert', message({ kind: 'paused' })],
    ['the out-of-searches notice', message({ kind: 'out-of-searches' })],
  ];
  for (const kind of CHANNEL_KINDS) {
    it.each(cases)(`${kind}: %s`, async (_, m) => {
      const { status, reply } = await post(kind, m);
      expect(status, reply).toBeLessThan(300);
    });
  }
});

describe('the stand-ins refuse what the services refuse, with their own replies', () => {
  const { app } = createChatChannelsStandin();
  const send = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    app.request(path, { method: 'POST', headers, body });
  const section = { type: 'section', text: { type: 'mrkdwn', text: 'x' } };

  it('Slack: 51 blocks or a section over 3,000 characters is invalid_blocks; a deleted webhook is no_service', async () => {
    const many = await send(PATHS.slack, JSON.stringify({ text: 'x', blocks: Array(51).fill(section) }));
    expect([many.status, await many.text()]).toEqual([400, 'invalid_blocks']);
    const long = await send(
      PATHS.slack,
      JSON.stringify({ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }] }),
    );
    expect([long.status, await long.text()]).toEqual([400, 'invalid_blocks']);
    const gone = await send('/slack/services/T0/B0/gone', JSON.stringify({ text: 'x' }));
    expect([gone.status, await gone.text()]).toEqual([404, 'no_service']);
  });

  it('Discord: over 6,000 characters or 25 fields is Invalid Form Body (50035); a deleted webhook is Unknown Webhook (10015)', async () => {
    const field = { name: 'n', value: 'v'.repeat(1000) };
    const big = await send(PATHS.discord, JSON.stringify({ embeds: [{ fields: Array(7).fill(field) }] }));
    expect(big.status).toBe(400);
    expect(await big.json()).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    const fields = await send(PATHS.discord, JSON.stringify({ embeds: [{ fields: Array(26).fill({ name: 'n', value: 'v' }) }] }));
    expect(await fields.json()).toMatchObject({ code: 50035 });
    const gone = await send('/discord/api/webhooks/1/gone', JSON.stringify({ content: 'x' }));
    expect([gone.status, await gone.json()]).toEqual([404, { message: 'Unknown Webhook', code: 10015 }]);
  });

  it('Teams: over 28 KB, an attachment that is not an Adaptive Card, or an address without its signature is refused', async () => {
    const card = (text: string, contentType = 'application/vnd.microsoft.card.adaptive') =>
      JSON.stringify({
        type: 'message',
        attachments: [{ contentType, content: { type: 'AdaptiveCard', version: '1.4', body: [{ type: 'TextBlock', text }] } }],
      });
    expect((await send(PATHS.teams, card('x'))).status).toBe(202);
    const big = await send(PATHS.teams, card('x'.repeat(29 * 1024)));
    expect(big.status).toBe(400);
    expect(await big.json()).toMatchObject({ error: { code: 'InvalidRequestContent' } });
    expect((await send(PATHS.teams, card('x', 'application/vnd.microsoft.card.hero'))).status).toBe(400);
    const unsigned = await send(PATHS.teams.replace(/&sig=.*$/, ''), card('x'));
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ error: { code: 'DirectApiAuthorizationRequired' } });
  });

  it('ntfy: over 4,096 bytes is 413; a protected topic without its token is 403', async () => {
    const big = await send(PATHS.ntfy, 'x'.repeat(4097), { 'content-type': 'text/plain' });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 41301, http: 413 });
    expect((await send('/ntfy/protected', 'hi', { 'content-type': 'text/plain' })).status).toBe(403);
    expect((await send('/ntfy/protected', 'hi', { 'content-type': 'text/plain', authorization: 'Bearer tk_standin' })).status).toBe(200);
  });
});
