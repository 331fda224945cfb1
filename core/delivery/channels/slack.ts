import { slackEscape } from '../webhook-payload';
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
 * Slack incoming webhooks (docs.slack.dev, "Sending messages using incoming webhooks"): a JSON body with Block
 * Kit `blocks` and a `text` Slack shows in notifications and where blocks cannot be shown. Block Kit's limits:
 * at most 50 blocks a message, a header's plain text at most 150 characters, a section's text at most 3,000.
 */
export const SLACK_MAX_BLOCKS = 50;
export const SLACK_HEADER_MAX = 150;
export const SLACK_SECTION_TEXT_MAX = 3000;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A link in Slack's mrkdwn, `<url|words>`: the address must not hold the `|` and `>` that end its parts. */
const slackLink = (url: string, words: string) => `<${url.replace(/[|<>]/g, (c) => encodeURIComponent(c))}|${slackEscape(words)}>`;

function eventSection(line: DigestLine) {
  const name = line.url ? slackLink(line.url, line.title) : slackEscape(line.title);
  const parts = [
    `*${line.badge}* · ${line.cancelled ? `~${name}~` : `*${name}*`}`,
    slackEscape(line.when),
    line.place ? slackEscape(line.place) : null,
    line.checked ? `_${slackEscape(line.checked)}_` : null,
  ].filter(Boolean);
  return { type: 'section', text: { type: 'mrkdwn', text: cut(parts.join('\n'), SLACK_SECTION_TEXT_MAX) } };
}

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text: cut(text, SLACK_SECTION_TEXT_MAX) } });

/** The message's blocks: a header, the zone, one section per event as many as fit, and "and N more" with the run's link. */
export function slackBody(m: ChannelMessage) {
  const title = channelTitle(m);
  const head = [
    { type: 'header', text: { type: 'plain_text', text: cut(title, SLACK_HEADER_MAX), emoji: false } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: slackEscape(channelSubtitle(m)) }] },
  ];
  if (m.kind !== 'digest') {
    return { text: slackEscape(title), blocks: [...head, section(slackEscape(noticeText(m)))] };
  }
  const lines = digestLines(m);
  const k = linesThatFit(lines.length, (n) => head.length + n + (n < lines.length ? 1 : 0) <= SLACK_MAX_BLOCKS);
  const blocks = [...head, ...lines.slice(0, k).map(eventSection)];
  if (k < lines.length) blocks.push(section(`${moreText(lines.length - k)}: ${slackLink(m.runUrl, 'see them all in Event Finder')}`));
  else blocks.push(section(slackLink(m.runUrl, 'Open this run in Event Finder')));
  return { text: slackEscape(title), blocks };
}

/**
 * Slack's documented refusals of an incoming webhook (a plain-text body): `no_service` (the webhook was
 * disabled or removed), `no_team`, `team_disabled`, `channel_not_found` and `channel_is_archived` mean the
 * address will never post again; `invalid_payload`, `invalid_blocks` and `action_prohibited` refuse this
 * message; 429 carries Retry-After; 5xx is Slack's own trouble.
 */
const SLACK_GONE = new Set(['no_service', 'no_team', 'team_disabled', 'channel_not_found', 'channel_is_archived']);

export function readSlackReply(reply: ChannelReply): ChannelOutcome {
  const words = replyWords(reply.body);
  if (reply.status >= 300 && SLACK_GONE.has(words)) {
    return { kind: 'gone', sentence: `Slack answered “${words}”: this incoming webhook no longer posts anywhere.` };
  }
  return statusOutcome('Slack', reply, words);
}

export const slack: ChannelService = {
  kind: 'slack',
  label: 'Slack',
  request: (m): ChannelRequest => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(slackBody(m)) }),
  read: readSlackReply,
};
