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
import { type ChannelOutcome, type ChannelReply, replyWords, retryAfterMs, statusOutcome } from './reply';

/**
 * Discord's Execute Webhook (discord.com/developers/docs, Webhook resource; Embed limits): `content` at most
 * 2,000 characters, at most 10 embeds, an embed's title at most 256 characters, its description 4,096, at
 * most 25 fields of name 256 and value 1,024, footer text 2,048, and all the embeds' texts together at most 6,000.
 */
export const DISCORD = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

interface Embed {
  title?: string;
  url?: string;
  description?: string;
  color?: number;
  fields?: { name: string; value: string }[];
  footer?: { text: string };
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Discord reads markdown in embeds: a website's words are escaped so they show as written. */
export const discordEscape = (text: string) => text.replace(/([\\*_~`|[\]()<>#])/g, '\\$1');

const eventField = (line: DigestLine) => ({
  name: cut(`${line.badge} · ${line.title}`, DISCORD.fieldName),
  value: cut(
    [
      discordEscape(line.when),
      line.place ? discordEscape(line.place) : null,
      line.checked ? `*${discordEscape(line.checked)}*` : null,
      line.url ? `[Event page](${line.url.replace(/[()]/g, (c) => encodeURIComponent(c))})` : null,
    ]
      .filter(Boolean)
      .join('\n'),
    DISCORD.fieldValue,
  ),
});

/** The characters Discord counts against its 6,000 (titles, descriptions, field names and values, footers). */
export function discordEmbedChars(embeds: Embed[]): number {
  let n = 0;
  for (const e of embeds) {
    n += (e.title ?? '').length + (e.description ?? '').length + (e.footer?.text ?? '').length;
    for (const f of e.fields ?? []) n += f.name.length + f.value.length;
  }
  return n;
}

const GREEN = 0x0f7b4d;

function embedsOf(m: ChannelMessage, lines: DigestLine[], k: number): Embed[] {
  const more = k < lines.length ? `\n${moreText(lines.length - k)}: [see them all in Event Finder](${m.runUrl})` : '';
  const fields = lines.slice(0, k).map(eventField);
  const embeds: Embed[] = [];
  for (let i = 0; i === 0 || i < fields.length; i += DISCORD.fields) {
    const some = fields.slice(i, i + DISCORD.fields);
    embeds.push(some.length > 0 ? { color: GREEN, fields: some } : { color: GREEN });
  }
  const first = embeds[0]!;
  Object.assign(first, {
    title: cut(channelTitle(m), DISCORD.title),
    url: m.runUrl,
    description: cut(`${discordEscape(channelSubtitle(m))}${more}`, DISCORD.description),
  });
  embeds[embeds.length - 1]!.footer = { text: 'Event Finder' };
  return embeds;
}

/** The webhook's JSON: a short `content`, the events as embed fields as many as fit, nobody pinged. */
export function discordBody(m: ChannelMessage) {
  const title = channelTitle(m);
  const base = { content: cut(title, DISCORD.content), allowed_mentions: { parse: [] as string[] } };
  if (m.kind !== 'digest') {
    const embeds: Embed[] = [
      {
        title: cut(title, DISCORD.title),
        url: m.runUrl,
        color: GREEN,
        description: cut(discordEscape(noticeText(m)), DISCORD.description),
      },
    ];
    return { ...base, embeds };
  }
  const lines = digestLines(m);
  const k = linesThatFit(lines.length, (n) => {
    const embeds = embedsOf(m, lines, n);
    return embeds.length <= DISCORD.embeds && discordEmbedChars(embeds) <= DISCORD.total;
  });
  return { ...base, embeds: embedsOf(m, lines, k) };
}

/** Discord's JSON error codes that say the webhook is gone: 10015 Unknown Webhook, 50027 Invalid Webhook Token. */
const DISCORD_GONE = new Set([10015, 50027]);

/**
 * Discord answers 204 (or 200) when posted; errors are JSON `{message, code}`; a 429 carries `retry_after`
 * (seconds) in its JSON and a Retry-After header.
 */
export function readDiscordReply(reply: ChannelReply): ChannelOutcome {
  let json: { message?: unknown; code?: unknown; retry_after?: unknown } = {};
  try {
    const parsed = JSON.parse(reply.body) as unknown;
    if (parsed && typeof parsed === 'object') json = parsed as typeof json;
  } catch {}
  const message = typeof json.message === 'string' ? replyWords(json.message) : replyWords(reply.body);
  if (reply.status >= 400 && typeof json.code === 'number' && DISCORD_GONE.has(json.code)) {
    return { kind: 'gone', sentence: `Discord answered “${message}” (code ${json.code}): this webhook was deleted.` };
  }
  if (reply.status === 429) {
    const afterMs =
      typeof json.retry_after === 'number' && json.retry_after >= 0 ? Math.ceil(json.retry_after * 1000) : retryAfterMs(reply.headers);
    return { kind: 'retry', sentence: `Discord asked us to slow down (HTTP 429): ${message}.`, afterMs };
  }
  return statusOutcome('Discord', reply, typeof json.code === 'number' ? `${message}, code ${json.code}` : message);
}

export const discord: ChannelService = {
  kind: 'discord',
  label: 'Discord',
  request: (m): ChannelRequest => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(discordBody(m)) }),
  read: readDiscordReply,
};
