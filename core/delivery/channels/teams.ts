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
import { type ChannelOutcome, type ChannelReply, replyWords, statusOutcome } from './reply';

/**
 * Microsoft Teams through a Workflows webhook ("Post to a channel when a webhook request is received"): a
 * message whose `attachments` hold one Adaptive Card (`contentType` application/vnd.microsoft.card.adaptive).
 * Teams refuses a message over 28 KB, so the card is cut to fit.
 */
export const TEAMS_CARD_TYPE = 'application/vnd.microsoft.card.adaptive';
export const TEAMS_MAX_BYTES = 28 * 1024;

/** Adaptive Cards' TextBlock reads a markdown subset (bold, italic, links): a website's words are escaped to show as written. */
export const teamsEscape = (text: string) => text.replace(/([\\*_[\]])/g, '\\$1');

const text = (t: string, more: Record<string, unknown> = {}) => ({ type: 'TextBlock', text: t, wrap: true, ...more });

function eventContainer(line: DigestLine) {
  const name = line.url
    ? `[${teamsEscape(line.title)}](${line.url.replace(/[()]/g, (c) => encodeURIComponent(c))})`
    : teamsEscape(line.title);
  return {
    type: 'Container',
    separator: true,
    items: [
      text(`**${line.badge}** · ${name}`),
      text(teamsEscape(line.when), { spacing: 'None' }),
      ...(line.place ? [text(teamsEscape(line.place), { spacing: 'None', isSubtle: true })] : []),
      ...(line.checked ? [text(teamsEscape(line.checked), { spacing: 'None', isSubtle: true, size: 'Small' })] : []),
    ],
  };
}

function messageOf(m: ChannelMessage, body: unknown[]) {
  return {
    type: 'message',
    attachments: [
      {
        contentType: TEAMS_CARD_TYPE,
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            text(teamsEscape(channelTitle(m)), { size: 'Large', weight: 'Bolder' }),
            text(teamsEscape(channelSubtitle(m)), { spacing: 'None', isSubtle: true }),
            ...body,
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'Open in Event Finder', url: m.runUrl }],
        },
      },
    ],
  };
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');

/** The Workflows message: the card with the events as many as fit in 28 KB, and "and N more" linking the run. */
export function teamsBody(m: ChannelMessage) {
  if (m.kind !== 'digest') return messageOf(m, [text(teamsEscape(noticeText(m)))]);
  const lines = digestLines(m);
  const build = (k: number) => {
    const more =
      k < lines.length ? [text(`${moreText(lines.length - k)}: [see them all in Event Finder](${m.runUrl})`, { separator: true })] : [];
    return messageOf(m, [...lines.slice(0, k).map(eventContainer), ...more]);
  };
  return build(linesThatFit(lines.length, (k) => bytes(build(k)) <= TEAMS_MAX_BYTES));
}

/**
 * A Workflows webhook answers 202 Accepted when it took the message; its errors are JSON
 * `{error: {code, message}}`: 404 when the workflow was deleted or turned off, 401 DirectApiAuthorizationRequired
 * once its trigger no longer lets anyone run it (no post to that address will be taken again, so the channel
 * stops as for a deleted one), 400 for a message it cannot read, 429 (with Retry-After) when the flow is throttled.
 */
export function readTeamsReply(reply: ChannelReply): ChannelOutcome {
  let detail = replyWords(reply.body);
  try {
    const parsed = JSON.parse(reply.body) as { error?: { code?: unknown; message?: unknown } };
    const e = parsed?.error;
    if (e && typeof e.message === 'string') detail = replyWords(typeof e.code === 'string' ? `${e.code}: ${e.message}` : e.message);
  } catch {}
  if (reply.status === 401) {
    const said = detail ? `: ${detail}` : '';
    return {
      kind: 'gone',
      sentence: `Microsoft Teams refused the address (HTTP 401${said}): its workflow no longer lets anyone post to it.`,
    };
  }
  return statusOutcome('Microsoft Teams', reply, detail);
}

export const teams: ChannelService = {
  kind: 'teams',
  label: 'Microsoft Teams',
  request: (m): ChannelRequest => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(teamsBody(m)) }),
  read: readTeamsReply,
};
