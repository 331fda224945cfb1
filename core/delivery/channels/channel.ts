import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { pinnedLookup } from '../../website/fetch';
import { DeliveryError } from '../errors';
import { checkWebhookUrl, WEBHOOK_TIMEOUT_MS, type WebhookGuard } from '../webhook';
import type { ChannelMessage } from './digest-lines';
import type { ChannelOutcome, ChannelReply } from './reply';
import { discord } from './discord';
import { ntfy } from './ntfy';
import { slack } from './slack';
import { teams } from './teams';

export type { ChannelMessage } from './digest-lines';
export type { ChannelOutcome, ChannelReply } from './reply';

/** The services a timer can post to beside email and its webhook (docs/decisions/delivery.md). */
export const CHANNEL_KINDS = ['slack', 'discord', 'teams', 'ntfy'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A message ready to POST: the service's content type, its headers and the body. */
export interface ChannelRequest {
  headers: Record<string, string>;
  body: string;
}

/** One service: its name, the message it shows, and how its replies read. */
export interface ChannelService {
  kind: ChannelKind;
  /** "Slack", "Discord", "Microsoft Teams", "ntfy". */
  label: string;
  /** The message as the service documents it, within its limits; `token` is ntfy's access token. */
  request(m: ChannelMessage, token: string | null): ChannelRequest;
  read(reply: ChannelReply): ChannelOutcome;
}

export const CHANNEL_SERVICES: Record<ChannelKind, ChannelService> = { slack, discord, teams, ntfy };

export const isChannelKind = (v: unknown): v is ChannelKind => typeof v === 'string' && (CHANNEL_KINDS as readonly string[]).includes(v);

/** A service's reply is read up to this many bytes: enough for any error it documents. */
const REPLY_MAX_BYTES = 16 * 1024;

/**
 * POSTs a channel's message: the address checked as a webhook's (public addresses only, WEBHOOK_ALLOW for
 * local stand-ins), the connection pinned to the checked addresses, no redirects, a time limit; the reply read
 * by the service's own rules. Network failures and time-outs come back as `retry`.
 */
export async function sendChannelMessage(
  kind: ChannelKind,
  url: string,
  token: string | null,
  m: ChannelMessage,
  guard: WebhookGuard & { timeoutMs?: number },
): Promise<ChannelOutcome> {
  const service = CHANNEL_SERVICES[kind];
  let checked: Awaited<ReturnType<typeof checkWebhookUrl>>;
  try {
    checked = await checkWebhookUrl(url, guard, service.label);
  } catch (err) {
    if (!(err instanceof DeliveryError)) throw err;
    return err.retryable ? { kind: 'retry', sentence: err.message, afterMs: null } : { kind: 'refused', sentence: err.message };
  }
  const { url: target, addresses } = checked;
  const host = isIP(target.hostname.replace(/^\[|\]$/g, '')) ? target.host : target.hostname;
  const timeoutMs = guard.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const agent = new Agent({ connect: { lookup: pinnedLookup(addresses), timeout: timeoutMs } });
  const { headers, body } = service.request(m, token);
  try {
    const res = await request(target, {
      method: 'POST',
      dispatcher: agent,
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'user-agent': 'EventFinder/1.0 (timer channel)', ...headers },
      body,
    });
    return service.read({ status: res.statusCode, headers: res.headers, body: await readLimited(res.body) });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    return {
      kind: 'retry',
      sentence: timedOut
        ? `${service.label} at ${host} did not answer within ${Math.round(timeoutMs / 1000)} seconds.`
        : `We could not reach ${service.label} at ${host}: ${(err as Error).message}.`,
      afterMs: null,
    };
  } finally {
    agent.close().catch(() => {});
  }
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= REPLY_MAX_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, REPLY_MAX_BYTES).toString('utf8');
}
