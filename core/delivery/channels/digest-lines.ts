import type { Event } from '../../contract/event';
import { eventPlace } from '../../events/event-place';
import { safeLink } from '../../events/strict-values';
import { zoneLabel } from '../../time/event-date-format';
import { digestCounts, eventBadge, eventCheck, eventWhen, messageZone } from '../event-text';
import { shortQuestion } from '../links';
import type { WebhookMessage } from '../webhook-payload';
import { webhookText } from '../webhook-payload';

/**
 * What every channel's message is made from: the digest's data as the email and the webhook have it (the run's
 * new, moved and cancelled events), the page at that run (where "and N more" links), and whether it is a test.
 */
export interface ChannelMessage extends WebhookMessage {
  /** The page at the run the message is about: the link of the title and of "and N more". */
  runUrl: string;
  /** A test send: said so in the title, so nobody takes it for news. */
  test?: boolean;
}

/** One event as a line of a chat message: each part already in words, the date in the timer's zone. */
export interface DigestLine {
  /** New, Moved, Cancelled or Changed. */
  badge: string;
  title: string;
  /** The event's page (http/https only), or null. */
  url: string | null;
  /** The date without the zone (the message names it once), a moved event as old → new. */
  when: string;
  place: string | null;
  /** How the event was checked against its page, or null when it was not. */
  checked: string | null;
  cancelled: boolean;
}

/** Titles come from websites: a chat line shows at most this much of one. */
const TITLE_MAX = 200;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function digestLines(m: ChannelMessage): DigestLine[] {
  return m.events.map((e: Event) => ({
    badge: eventBadge(e),
    title: cut(e.title.replace(/\s+/g, ' ').trim(), TITLE_MAX),
    url: safeLink(e.url),
    when: eventWhen(e, m.timer.timezone, { zone: false }),
    place: eventPlace(e),
    checked: eventCheck(e, m.timer.timezone),
    cancelled: e.status === 'cancelled',
  }));
}

/** "3 new events for “AI meetups in Berlin”", a notice's headline, or either marked as a test. */
export function channelTitle(m: ChannelMessage): string {
  const q = shortQuestion(m.timer.question);
  const title =
    m.kind === 'paused'
      ? `Your timer “${q}” paused itself`
      : m.kind === 'out-of-searches'
        ? `No searches left: “${q}” skipped its run`
        : `${digestCounts(m.events)} for “${q}”`;
  return m.test ? `Test message — ${title}` : title;
}

/** The line under the title: the zone every date is in, or that this is a test. */
export function channelSubtitle(m: ChannelMessage): string {
  const zone = `Times in ${zoneLabel(messageZone(m.timer.timezone))}.`;
  return m.test ? `${zone} This is a test from Event Finder: your channel works.` : zone;
}

/** The words of a notice (a pause, no searches left): the webhook's text, which says what to do. */
export const noticeText = (m: ChannelMessage) => webhookText(m);

/** "…and 13 more": the words before the link to the run. */
export const moreText = (n: number) => `…and ${n} more`;

/**
 * The most lines a message holds: `fits(k)` says whether the message with the first k lines (and "and N more"
 * for the rest) is within the service's limits. Lines are tried in order, so the earliest events are kept.
 */
export function linesThatFit(total: number, fits: (k: number) => boolean): number {
  let k = 0;
  while (k < total && fits(k + 1)) k++;
  return k;
}
