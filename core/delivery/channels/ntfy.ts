import type { ChannelRequest, ChannelService } from './channel';
import {
  type ChannelMessage,
  channelSubtitle,
  channelTitle,
  type DigestLine,
  digestLines,
  linesThatFit,
  moreText,
  noticeText,
} from './digest-lines';
import { type ChannelOutcome, type ChannelReply, replyWords, spacedControls, statusOutcome } from './reply';

/**
 * ntfy (docs.ntfy.sh, "Publishing"): the message is the body of a POST to the topic's URL, with `Title`, `Tags`
 * (emoji short codes) and `Click` (the page a tap opens) as headers, and `Authorization: Bearer <token>` for a
 * protected topic. A body over 4,096 bytes is no longer a message (ntfy keeps it as an attachment), so the
 * message is cut to fit.
 */
export const NTFY_MAX_BYTES = 4096;

/**
 * HTTP headers carry Latin-1 only; ntfy reads a header encoded as RFC 2047 (`=?UTF-8?B?…?=`), so a title with
 * other characters is sent that way.
 */
export function ntfyHeader(value: string): string {
  const clean = spacedControls(value);
  return /^[\u0020-\u007e]*$/.test(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
}

const eventText = (line: DigestLine) =>
  [
    `• ${line.badge}: ${line.title}`,
    `  ${line.when}${line.place ? ` · ${line.place}` : ''}`,
    line.checked ? `  ${line.checked}` : null,
    line.url ? `  ${line.url}` : null,
  ]
    .filter(Boolean)
    .join('\n');

/** The message's text: the zone, the events as many as fit in 4,096 bytes, and "and N more" with the run's link. */
export function ntfyText(m: ChannelMessage): string {
  if (m.kind !== 'digest') return cutBytes(noticeText(m), NTFY_MAX_BYTES);
  const lines = digestLines(m);
  const build = (k: number) => {
    const parts = [channelSubtitle(m), ...lines.slice(0, k).map(eventText)];
    parts.push(k < lines.length ? `${moreText(lines.length - k)}: ${m.runUrl}` : `Open in Event Finder: ${m.runUrl}`);
    return parts.join('\n');
  };
  return cutBytes(build(linesThatFit(lines.length, (k) => Buffer.byteLength(build(k), 'utf8') <= NTFY_MAX_BYTES)), NTFY_MAX_BYTES);
}

/** Text cut to at most `max` UTF-8 bytes without splitting a character. */
function cutBytes(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  let out = '';
  for (const ch of text) {
    if (Buffer.byteLength(`${out}${ch}…`, 'utf8') > max) break;
    out += ch;
  }
  return `${out}…`;
}

export function ntfyRequest(m: ChannelMessage, token: string | null): ChannelRequest {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: ntfyHeader(`Event Finder: ${channelTitle(m)}`.slice(0, 250)),
    tags: m.test ? 'test_tube' : m.kind === 'digest' ? 'calendar' : 'warning',
    click: m.runUrl,
  };
  if (token) headers.authorization = `Bearer ${token}`;
  return { headers, body: ntfyText(m) };
}

/**
 * ntfy answers 200 with the message as JSON; its errors are JSON `{code, http, error, link}`: 401/403 when the
 * topic needs an access token or the token may not publish (the message is refused; the token is the fix),
 * 413 for too large, 429 for too many messages (with Retry-After when it says).
 */
export function readNtfyReply(reply: ChannelReply): ChannelOutcome {
  let detail = replyWords(reply.body);
  try {
    const parsed = JSON.parse(reply.body) as { error?: unknown; code?: unknown };
    if (typeof parsed?.error === 'string')
      detail = replyWords(typeof parsed.code === 'number' ? `${parsed.error}, code ${parsed.code}` : parsed.error);
  } catch {}
  if (reply.status === 401 || reply.status === 403) {
    return {
      kind: 'refused',
      sentence: `ntfy refused the message (HTTP ${reply.status}: ${detail}). Check the topic's access token in Manage Timers.`,
    };
  }
  return statusOutcome('ntfy', reply, detail);
}

export const ntfy: ChannelService = { kind: 'ntfy', label: 'ntfy', request: ntfyRequest, read: readNtfyReply };
