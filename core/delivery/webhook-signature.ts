import { createHmac, randomBytes } from 'node:crypto';

/** A timer's webhook signing secret, as Standard Webhooks writes it: `whsec_` and base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt (https://www.standardwebhooks.com, "Signature scheme"):
 * `webhook-id` the delivery's stable id (the same on every retry, so a receiver can drop a repeat),
 * `webhook-timestamp` the attempt's time in whole seconds, and `webhook-signature` `v1,` and base64 of
 * HMAC-SHA256 over `id.timestamp.body`, keyed with the secret's base64-decoded bytes after `whsec_`.
 */
export function webhookSignatureHeaders(secret: string, id: string, body: string, now: Date = new Date()): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

/** A delivery's stable id, the same on every attempt: `webhook-id` for webhooks and, in Message-ID, for email. */
export function deliveryMessageId(deliveryId: number): string {
  return `msg_delivery_${deliveryId}`;
}
