/** How a service's reply reads: the outcomes, and the rules every service shares. */

/** What the service answered, read inside limits (REPLY_MAX_BYTES of body). */
export interface ChannelReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * How a reply reads: delivered; worth another attempt (after `afterMs` when the service said how long);
 * this message refused (no retry, the channel stays); or the address is gone for good (the channel stops and
 * its owner is told). `sentence` says it for the owner.
 */
export type ChannelOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; sentence: string; afterMs: number | null }
  | { kind: 'refused'; sentence: string }
  | { kind: 'gone'; sentence: string };

/** A `Retry-After` header in milliseconds: seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(headers: ChannelReply['headers'], now = Date.now()): number | null {
  const raw = headers['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The outcomes every service shares for a status it documents nothing special about. */
export function statusOutcome(label: string, reply: ChannelReply, detail: string): ChannelOutcome {
  const { status } = reply;
  const said = detail ? ` (${detail})` : '';
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 404 || status === 410) {
    return { kind: 'gone', sentence: `${label} answered HTTP ${status}${said}: this address no longer exists.` };
  }
  if (status === 429) {
    return { kind: 'retry', sentence: `${label} asked us to slow down (HTTP 429)${said}.`, afterMs: retryAfterMs(reply.headers) };
  }
  if (status === 408 || status >= 500) return { kind: 'retry', sentence: `${label} answered HTTP ${status}${said}.`, afterMs: null };
  return { kind: 'refused', sentence: `${label} refused the message: HTTP ${status}${said}.` };
}

/** Text with every C0 control character and DEL as a space: a service's words or a header stay one plain line. */
export function spacedControls(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    out += code < 0x20 || code === 0x7f ? ' ' : ch;
  }
  return out;
}

/** A reply body as one short line for a sentence: control characters out, at most 200 characters. */
export function replyWords(body: string): string {
  const words = spacedControls(body).replace(/\s+/g, ' ').trim();
  return words.length > 200 ? `${words.slice(0, 199)}…` : words;
}
