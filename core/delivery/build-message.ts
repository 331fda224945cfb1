import type { Db } from '../../db/client';
import type { DeliveryToSend } from '../../db/deliveries';
import { createUnsubscribeToken } from '../../db/unsubscribe-tokens';
import { oneCardPerSeries } from '../events/series-card';
import { renderDigest, type RenderedEmail } from './email/digest';
import { renderOutOfSearches, renderPausedAlert } from './email/notices';
import { timerRunsUrl, timerRunUrl, unsubscribeUrl } from './links';
import type { ChannelMessage } from './channels/digest-lines';
import type { OutgoingEmail } from './mailer';
import { webhookPayload } from './webhook-payload';
import { deliveryMessageId } from './webhook-signature';

/** A delivery's webhook call, ready to post: where, what, and the stable id its signature is made with. */
export interface WebhookCall {
  url: string;
  body: ReturnType<typeof webhookPayload>;
  id: string;
  secret: string | null;
}

/**
 * What a message is built from: a recorded delivery, or a preview's or a test send's stand-in for one (no row,
 * an id of its own), so both are built by the code below and never by a second renderer.
 */
export type MessageSource = Omit<DeliveryToSend, 'id' | 'attempts' | 'channel' | 'channelRow'>;

/** A delivery as an email: rendered, with a fresh unsubscribe link (one token per email) in body and headers. */
export async function emailOf(sql: Db, appUrl: string, d: DeliveryToSend, notice: string | null = null): Promise<OutgoingEmail> {
  const unsubscribe = unsubscribeUrl(appUrl, await createUnsubscribeToken(sql, d.timer.id));
  return composeEmail(appUrl, d, { messageId: deliveryMessageId(d.id), unsubscribe, notice });
}

/** The email of a message with its id (the `Message-ID`'s local part) and its unsubscribe link given. */
export function composeEmail(
  appUrl: string,
  d: MessageSource,
  { messageId, unsubscribe, notice }: { messageId: string; unsubscribe: string; notice: string | null },
): OutgoingEmail {
  const runsUrl = timerRunsUrl(appUrl, d.timer.id);
  let email: RenderedEmail;
  if (d.kind === 'digest') {
    email = renderDigest({
      notice,
      question: d.timer.question,
      timezone: d.timer.timezone,
      // A series its source gives as one rule is one item (core/events/series-card.ts).
      events: oneCardPerSeries(d.events, new Date()),
      // "Read this run's answer": the run the message is about, not whichever ran last.
      runsUrl: timerRunUrl(appUrl, d.timer.id, d.run.id),
      unsubscribeUrl: unsubscribe,
    });
  } else {
    const notice = { question: d.timer.question, reason: d.run.error, manageUrl: runsUrl, appUrl, unsubscribeUrl: unsubscribe };
    email = d.kind === 'paused' ? renderPausedAlert(notice) : renderOutOfSearches(notice);
  }
  return {
    // The address recorded with the delivery: a retry goes where the first attempt went.
    to: d.target ?? d.user.email,
    ...email,
    // The same Message-ID on every attempt: a server that accepted the message but dropped the connection before
    // saying so gets it again, and mail systems that drop a repeated Message-ID show it once (docs/decisions/delivery.md).
    messageId: `<${messageId}@${new URL(appUrl).hostname}>`,
    // RFC 2369 + RFC 8058: mail clients show an Unsubscribe button that POSTs here, without signing in.
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/**
 * A delivery as a webhook call: the address recorded with the delivery (a retry goes where the first attempt
 * went), signed per Standard Webhooks with the timer's secret and the delivery's stable id, so a receiver can
 * verify and drop repeats.
 */
export function webhookOf(appUrl: string, d: DeliveryToSend): WebhookCall {
  return webhookCallOf(appUrl, d, deliveryMessageId(d.id));
}

/** The webhook call of a message with its `webhook-id` given. */
export function webhookCallOf(appUrl: string, d: MessageSource, id: string): WebhookCall {
  return {
    url: d.target ?? d.timer.webhookUrl!,
    body: webhookPayload({ kind: d.kind, timer: d.timer, run: d.run, events: d.events, runsUrl: timerRunsUrl(appUrl, d.timer.id) }),
    id,
    secret: d.timer.webhookSecret,
  };
}

/**
 * A delivery as a chat or push channel's message (core/delivery/channels/): the digest's data as the webhook
 * has it, and the page at the run, where "and N more" links.
 */
export function channelMessageOf(appUrl: string, d: MessageSource): ChannelMessage {
  return {
    kind: d.kind,
    timer: d.timer,
    run: d.run,
    events: d.events,
    runsUrl: timerRunsUrl(appUrl, d.timer.id),
    runUrl: timerRunUrl(appUrl, d.timer.id, d.run.id),
  };
}
