import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { SearchError } from '../search-error';
import { checkHost, pinnedLookup, type ResolvedAddress } from '../website/fetch';
import { DeliveryError } from './errors';
import { replySnippet } from './reply-snippet';
import { WebhookGoneError, webhookIsGone } from './webhook-gone';
import { webhookSignatureHeaders } from './webhook-signature';

export const WEBHOOK_TIMEOUT_MS = 10_000;
const MAX_URL_LENGTH = 2000;

export interface WebhookGuard {
  /** `host` or `host:port` entries exempt from the private-address block (WEBHOOK_ALLOW). */
  allow: string[];
  /** Injectable for tests; the system resolver by default. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

/**
 * Checks a webhook address the way a user's website is checked (core/website/fetch.ts): http(s) only, no
 * credentials, and every address the name resolves to public. Throws DeliveryError with a sentence for the
 * user; used when the address is saved and again before every POST (DNS can change in between).
 */
export async function checkWebhookUrl(
  raw: string,
  guard: WebhookGuard,
  /** What the address is for the sentences: "webhook" (the timer's), or a chat channel's service ("Slack"). */
  what = 'webhook',
): Promise<{ url: URL; addresses: ResolvedAddress[] }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DeliveryError(
      `The ${what} address is not a valid URL. Paste the full address, such as https://hooks.slack.com/services/….`,
      false,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DeliveryError(`The ${what} address must start with https:// (or http://).`, false);
  }
  if (url.username || url.password) {
    throw new DeliveryError(
      what === 'webhook'
        ? 'Webhook addresses with a user name or password are not supported. Use the address your service gives for webhooks.'
        : `${what} addresses with a user name or password are not supported. Use the address ${what} gives.`,
      false,
    );
  }
  if (raw.length > MAX_URL_LENGTH) throw new DeliveryError(`The ${what} address is longer than ${MAX_URL_LENGTH} characters.`, false);
  try {
    return { url, addresses: await checkHost(url, guard) };
  } catch (err) {
    if (!(err instanceof SearchError)) throw err;
    const host = url.hostname;
    if (err.code === 'website_refused') {
      throw new DeliveryError(
        `The ${what} address ${host} points to a private or local network, which we do not call. Use a public address.`,
        false,
      );
    }
    // A name that does not resolve may be a DNS hiccup when sending; when saving, the caller says so.
    throw new DeliveryError(`We could not find the ${what} host ${host} (its name does not resolve). Check the address.`, true, {
      cause: err,
    });
  }
}

/**
 * POSTs JSON to a timer's webhook: the address re-checked and the connection pinned to the checked addresses
 * (no DNS rebinding), no redirects followed, a time limit. 2xx is success; 408, 429 and 5xx are retried.
 */
export async function postWebhook(
  raw: string,
  body: unknown,
  guard: WebhookGuard & {
    timeoutMs?: number;
    /** The delivery's stable id (`webhook-id`), the same on every attempt. */
    id?: string;
    /** The timer's signing secret; with `id`, the Standard Webhooks headers are sent. */
    secret?: string | null;
  },
): Promise<number> {
  const { url, addresses } = await checkWebhookUrl(raw, guard);
  const timeoutMs = guard.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const agent = new Agent({ connect: { lookup: pinnedLookup(addresses), timeout: timeoutMs } });
  const host = isIP(url.hostname.replace(/^\[|\]$/g, '')) ? url.host : url.hostname;
  const json = JSON.stringify(body);
  const identity = guard.id ? (guard.secret ? webhookSignatureHeaders(guard.secret, guard.id, json) : { 'webhook-id': guard.id }) : {};
  try {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'content-type': 'application/json', 'user-agent': 'EventFinder/1.0 (timer webhook)', ...identity },
      body: json,
    }).catch((err: unknown) => {
      const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
      throw new DeliveryError(
        timedOut
          ? `The webhook at ${host} did not answer within ${Math.round(timeoutMs / 1000)} seconds.`
          : `We could not reach the webhook at ${host}: ${(err as Error).message}.`,
        true,
        { cause: err },
      );
    });
    const status = res.statusCode;
    if (status >= 200 && status < 300) {
      await res.body.dump().catch(() => {});
      return status;
    }
    // A refusal's own words ("no_service", "Unknown Webhook", an error page's title) say more than its status.
    const said = await replySnippet(res.body);
    res.body.destroy();
    if (webhookIsGone(status)) throw new WebhookGoneError(host);
    const retryable = status === 408 || status === 429 || status >= 500;
    throw new DeliveryError(
      `The webhook at ${host} answered HTTP ${status}${said ? `: "${said}"` : ''}.${retryable ? '' : ' Check the address in Manage Timers.'}`,
      retryable,
    );
  } finally {
    agent.close().catch(() => {});
  }
}
