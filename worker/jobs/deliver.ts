import { UnrecoverableError, type Job } from 'bullmq';
import type { Config } from '../../core/config';
import { renderDigest, type RenderedEmail } from '../../core/delivery/email/digest';
import { renderOutOfSearches, renderPausedAlert } from '../../core/delivery/email/notices';
import { DeliveryError } from '../../core/delivery/errors';
import { disableWebhookAfterGone, WebhookGoneError } from '../../core/delivery/webhook-gone';
import { markWebhookGoneNoticeMailed, pendingWebhookGoneNotice } from '../../db/webhook-gone';
import { timerRunsUrl, unsubscribeUrl } from '../../core/delivery/links';
import type { Mailer } from '../../core/delivery/mailer';
import { postWebhook, type WebhookGuard } from '../../core/delivery/webhook';
import { webhookPayload } from '../../core/delivery/webhook-payload';
import { deliveryMessageId } from '../../core/delivery/webhook-signature';
import { deliverJobSchema, type DeliverJob } from '../../core/jobs';
import type { Logger } from '../../core/logger';
import { countDelivery } from '../../core/metrics';
import type { Sql } from '../../db/client';
import { claimDelivery, endDeliveryAttempt, type DeliveryToSend } from '../../db/deliveries';
import { createUnsubscribeToken } from '../../db/unsubscribe-tokens';

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

export type DeliverOutcome = 'sent' | 'skipped' | 'already-handled';

/**
 * Processes one `deliver` job: claims its deliveries row (so nothing is sent twice), sends the email or the
 * webhook, and records the result. Transient failures are thrown for BullMQ to retry with backoff; permanent
 * ones (SMTP 5xx, a webhook 4xx, a private address) end the job at once.
 */
export function createDeliverProcessor(deps: DeliverDeps) {
  return async (job: Job<DeliverJob>): Promise<DeliverOutcome> => {
    const data = deliverJobSchema.safeParse(job.data);
    if (!data.success) throw new UnrecoverableError(`Job data is not {deliveryId}: ${JSON.stringify(job.data)}`);
    const delivery = await claimDelivery(deps.sql, data.data.deliveryId);
    // Sent already, being sent by another execution, or interrupted mid-send (at most once): nothing to do.
    if (!delivery) return 'already-handled';
    const log = deps.logger.child({ jobId: job.id, deliveryId: delivery.id, channel: delivery.channel, kind: delivery.kind });

    const skip = skipReason(delivery, deps.mailer);
    if (skip) {
      await endDeliveryAttempt(deps.sql, delivery.id, 'skipped', skip);
      countDelivery(delivery.channel, 'skipped');
      log.info({ reason: skip }, 'delivery skipped');
      return 'skipped';
    }
    try {
      if (delivery.channel === 'email') await sendEmail(deps, deps.mailer!, delivery);
      else await sendWebhook(deps, delivery);
    } catch (err) {
      const message = (err as Error).message || String(err);
      if (err instanceof WebhookGoneError) {
        const removed = await disableWebhookAfterGone(deps.sql, delivery.timer.id, delivery.target ?? delivery.timer.webhookUrl!, err);
        if (removed) log.warn('webhook answered 410 Gone: removed from its timer');
      }
      const retryable = err instanceof DeliveryError ? err.retryable : true;
      const lastAttempt = job.attemptsMade + 1 >= (job.opts?.attempts ?? 1);
      // 'failed' means finally failed (what the timer row and the metrics show); a retry waits as pending.
      const finalFailure = !retryable || lastAttempt;
      await endDeliveryAttempt(deps.sql, delivery.id, finalFailure ? 'failed' : 'retrying', message);
      countDelivery(delivery.channel, finalFailure ? 'failed' : 'retrying');
      log.warn({ err: message, retryable, attempt: job.attemptsMade + 1 }, 'delivery failed');
      throw retryable ? err : new UnrecoverableError(message);
    }
    await endDeliveryAttempt(deps.sql, delivery.id, 'sent');
    countDelivery(delivery.channel, 'sent');
    log.info('delivery sent');
    return 'sent';
  };
}

/** Checked at send time, not when recorded: an unsubscribe or a removed webhook stops the message still queued. */
function skipReason(d: DeliveryToSend, mailer: Mailer | null): string | null {
  if (d.timer.deleted) return 'The timer was deleted.';
  if (d.channel === 'email' && !mailer) return 'Email is off on this server (SMTP_URL is not set).';
  if (d.channel === 'email' && !d.timer.email) return 'Email is turned off for this timer.';
  if (d.channel === 'webhook' && !d.timer.webhookUrl) return 'The timer has no webhook address any more.';
  return null;
}

async function sendEmail(deps: DeliverDeps, mailer: Mailer, d: DeliveryToSend): Promise<void> {
  const appUrl = deps.config.appUrl;
  const unsubscribe = unsubscribeUrl(appUrl, await createUnsubscribeToken(deps.sql, d.timer.id));
  const runsUrl = timerRunsUrl(appUrl, d.timer.id);
  let email: RenderedEmail;
  const notice = d.kind === 'digest' ? await pendingWebhookGoneNotice(deps.sql, d.timer.id) : null;
  if (d.kind === 'digest') {
    email = renderDigest({
      notice,
      question: d.timer.question,
      timezone: d.timer.timezone,
      events: d.events,
      runsUrl,
      unsubscribeUrl: unsubscribe,
    });
  } else {
    const notice = { question: d.timer.question, reason: d.run.error, manageUrl: runsUrl, appUrl, unsubscribeUrl: unsubscribe };
    email = d.kind === 'paused' ? renderPausedAlert(notice) : renderOutOfSearches(notice);
  }
  await mailer.send({
    // The address recorded with the delivery: a retry goes where the first attempt went.
    to: d.target ?? d.user.email,
    ...email,
    // The same Message-ID on every attempt: a server that accepted the message but dropped the connection before
    // saying so gets it again, and mail systems that drop a repeated Message-ID show it once (decision 038).
    messageId: `<${deliveryMessageId(d.id)}@${new URL(appUrl).hostname}>`,
    // RFC 2369 + RFC 8058: mail clients show an Unsubscribe button that POSTs here, without signing in.
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  });
  if (notice) await markWebhookGoneNoticeMailed(deps.sql, d.timer.id);
}

async function sendWebhook(deps: DeliverDeps, d: DeliveryToSend): Promise<void> {
  const body = webhookPayload({
    kind: d.kind,
    timer: d.timer,
    run: d.run,
    events: d.events,
    runsUrl: timerRunsUrl(deps.config.appUrl, d.timer.id),
  });
  // The address recorded with the delivery (a retry goes where the first attempt went), signed per Standard
  // Webhooks with the timer's secret and the delivery's stable id, so a receiver can verify and drop repeats.
  await postWebhook(d.target ?? d.timer.webhookUrl!, body, {
    allow: deps.config.webhookAllow,
    resolve: deps.resolve,
    timeoutMs: deps.webhookTimeoutMs,
    id: deliveryMessageId(d.id),
    secret: d.timer.webhookSecret,
  });
}
