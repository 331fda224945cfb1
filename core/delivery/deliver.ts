import type { Sql } from '../../db/client';
import { claimDelivery, type DeliveryToSend, endDeliveryAttempt } from '../../db/deliveries';
import { markChannelNoticesMailed, pendingChannelNotices, stopTimerChannel } from '../../db/timer-channels';
import { markWebhookGoneNoticeMailed, pendingWebhookGoneNotice } from '../../db/webhook-gone';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { countDelivery } from '../metrics';
import { channelMessageOf, emailOf, webhookOf } from './build-message';
import { CHANNEL_SERVICES, isChannelKind, sendChannelMessage } from './channels/channel';
import { DeliveryError } from './errors';
import { disableWebhookAfterGone, WebhookGoneError } from './webhook-gone';
import type { Mailer } from './mailer';
import { postWebhook, type WebhookGuard } from './webhook';

export interface DeliverDeps {
  sql: Sql;
  config: Config;
  logger: Logger;
  /** null when email is off (production without SMTP_URL): email deliveries are skipped. */
  mailer: Mailer | null;
  /** Only for tests: a resolver for the webhook address guard. */
  resolve?: WebhookGuard['resolve'];
  /** Only for tests: how long a webhook POST may take (WEBHOOK_TIMEOUT_MS otherwise). */
  webhookTimeoutMs?: number;
}

/** One attempt at a recorded delivery, as the queue hands it over. */
export interface DeliveryAttempt {
  deliveryId: number;
  /** 1 for the first attempt; `lastAttempt` when no retry follows. */
  attempt: number;
  lastAttempt: boolean;
  /** The queue's id of the attempt, for the logs. */
  jobId?: string;
}

export type DeliverOutcome =
  | { kind: 'sent' | 'skipped' | 'already-handled' }
  /** The attempt failed; `retryable` says whether another attempt may succeed (the row says 'retrying' then). */
  | { kind: 'failed'; error: Error; retryable: boolean };

/**
 * Sends one recorded delivery: claims its deliveries row (so nothing is sent twice), builds the email or the
 * webhook call (build-message.ts), sends it, and records the result. Transient failures come back retryable;
 * permanent ones (SMTP 5xx, a webhook 4xx, a private address) not.
 */
export async function deliver(deps: DeliverDeps, attempt: DeliveryAttempt): Promise<DeliverOutcome> {
  const delivery = await claimDelivery(deps.sql, attempt.deliveryId);
  // Sent already, being sent by another execution, or interrupted mid-send (at most once): nothing to do.
  if (!delivery) return { kind: 'already-handled' };
  const log = deps.logger.child({ jobId: attempt.jobId, deliveryId: delivery.id, channel: delivery.channel, kind: delivery.kind });

  const skip = skipReason(delivery, deps.mailer);
  if (skip) {
    await endDeliveryAttempt(deps.sql, delivery.id, 'skipped', skip);
    countDelivery(delivery.channel, 'skipped');
    log.info({ reason: skip }, 'delivery skipped');
    return { kind: 'skipped' };
  }
  try {
    if (delivery.channel === 'email') await sendEmail(deps, deps.mailer!, delivery);
    else if (delivery.channel === 'webhook') await sendWebhook(deps, delivery);
    else await sendToChannel(deps, delivery);
  } catch (err) {
    const message = (err as Error).message || String(err);
    if (err instanceof WebhookGoneError) {
      const removed = await disableWebhookAfterGone(deps.sql, delivery.timer.id, delivery.target ?? delivery.timer.webhookUrl!, err);
      if (removed) log.warn('webhook answered 410 Gone: removed from its timer');
    }
    const retryable = err instanceof DeliveryError ? err.retryable : true;
    // 'failed' means finally failed (what the timer row and the metrics show); a retry waits as pending.
    const finalFailure = !retryable || attempt.lastAttempt;
    await endDeliveryAttempt(deps.sql, delivery.id, finalFailure ? 'failed' : 'retrying', message);
    countDelivery(delivery.channel, finalFailure ? 'failed' : 'retrying');
    log.warn({ err: message, retryable, attempt: attempt.attempt }, 'delivery failed');
    return { kind: 'failed', error: err instanceof Error ? err : new Error(message), retryable };
  }
  await endDeliveryAttempt(deps.sql, delivery.id, 'sent');
  countDelivery(delivery.channel, 'sent');
  log.info('delivery sent');
  return { kind: 'sent' };
}

/** Checked at send time, not when recorded: an unsubscribe or a removed webhook stops the message still queued. */
function skipReason(d: DeliveryToSend, mailer: Mailer | null): string | null {
  if (d.timer.deleted) return 'The timer was deleted.';
  if (d.channel === 'email' && !mailer) return 'Email is off on this server (SMTP_URL is not set).';
  if (d.channel === 'email' && !d.timer.email) return 'Email is turned off for this timer.';
  if (d.channel === 'webhook' && !d.timer.webhookUrl) return 'The timer has no webhook address any more.';
  if (isChannelKind(d.channel) && !d.channelRow) return 'The channel was removed from the timer.';
  if (isChannelKind(d.channel) && d.channelRow?.stopped) return 'The channel was stopped: its service said the address is gone.';
  return null;
}

/** A digest carries, once, the sentence on a webhook that a 410 Gone removed and on each channel that stopped. */
async function sendEmail(deps: DeliverDeps, mailer: Mailer, d: DeliveryToSend): Promise<void> {
  const webhookNotice = d.kind === 'digest' ? await pendingWebhookGoneNotice(deps.sql, d.timer.id) : null;
  const channelNotices = d.kind === 'digest' ? await pendingChannelNotices(deps.sql, d.timer.id) : [];
  const notices = [webhookNotice, ...channelNotices].filter((n): n is string => n !== null);
  await mailer.send(await emailOf(deps.sql, deps.config.appUrl, d, notices.length > 0 ? notices.join(' ') : null));
  if (webhookNotice) await markWebhookGoneNoticeMailed(deps.sql, d.timer.id);
  if (channelNotices.length > 0) await markChannelNoticesMailed(deps.sql, d.timer.id);
}

/**
 * Posts to a Slack, Discord, Teams or ntfy channel, at the address recorded with the delivery, and reads the
 * reply by the service's rules (core/delivery/channels/): a service saying the address is gone stops the
 * channel, with the sentence on the timer and once in its next digest email.
 */
async function sendToChannel(deps: DeliverDeps, d: DeliveryToSend): Promise<void> {
  if (!isChannelKind(d.channel) || !d.channelRow) throw new DeliveryError('The channel was removed from the timer.', false);
  const url = d.target ?? d.channelRow.url;
  const outcome = await sendChannelMessage(d.channel, url, d.channelRow.token, channelMessageOf(deps.config.appUrl, d), {
    allow: deps.config.webhookAllow,
    resolve: deps.resolve,
    timeoutMs: deps.webhookTimeoutMs,
  });
  switch (outcome.kind) {
    case 'delivered':
      return;
    case 'retry':
      throw new DeliveryError(outcome.sentence, true, { retryAfterMs: outcome.afterMs });
    case 'refused':
      throw new DeliveryError(`${outcome.sentence} Check the address in Manage Timers.`, false);
    case 'gone': {
      const label = CHANNEL_SERVICES[d.channel].label;
      const notice = `${outcome.sentence} We stopped posting to this ${label} channel; remove it and add its new address in Manage Timers.`;
      if (await stopTimerChannel(deps.sql, d.channelRow.id, url, notice)) {
        deps.logger.warn({ timerId: d.timer.id, channelId: d.channelRow.id, kind: d.channel }, 'channel address gone: stopped');
      }
      throw new DeliveryError(notice, false);
    }
  }
}

async function sendWebhook(deps: DeliverDeps, d: DeliveryToSend): Promise<void> {
  const call = webhookOf(deps.config.appUrl, d);
  await postWebhook(call.url, call.body, {
    allow: deps.config.webhookAllow,
    resolve: deps.resolve,
    timeoutMs: deps.webhookTimeoutMs,
    id: call.id,
    secret: call.secret,
  });
}
