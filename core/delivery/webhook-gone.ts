import type { Sql } from '../../db/client';
import { disableGoneWebhook } from '../../db/webhook-gone';
import { DeliveryError } from './errors';

/**
 * 410 Gone is the receiver saying the address will never work again (Standard Webhooks and most senders stop
 * there): not retried, and the webhook is removed from the timer. Other 4xx may be a passing mistake of the
 * receiver's and only fail this delivery.
 */
export const webhookIsGone = (status: number) => status === 410;

/** The permanent failure of a delivery whose webhook answered 410 Gone. */
export class WebhookGoneError extends DeliveryError {
  override name = 'WebhookGoneError';
  constructor(host: string) {
    super(`The webhook at ${host} answered HTTP 410 Gone: it no longer exists, so we removed it from this timer.`, false);
  }
}

/** After a WebhookGoneError: the timer's webhook goes, with the error's sentence on the timer and in its next digest. */
export async function disableWebhookAfterGone(sql: Sql, timerId: number, url: string, err: WebhookGoneError): Promise<boolean> {
  const notice = `${err.message} Set a new address in Manage Timers to get webhooks again.`;
  return disableGoneWebhook(sql, timerId, url, notice);
}
