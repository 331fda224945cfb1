import type { Db } from '../../db/client';
import { createUnsubscribeToken } from '../../db/unsubscribe-tokens';
import type { DestinationName, MessagePreview } from '../contract/test-delivery';
import { composeEmail, type MessageSource, webhookCallOf } from './build-message';
import { DeliveryError } from './errors';
import { unsubscribeUrl } from './links';
import type { Mailer } from './mailer';
import { markTestEmail, markTestWebhook, testEmailNotice, testMessageId } from './test-message';
import { postWebhook, type WebhookGuard } from './webhook';
import { WebhookGoneError } from './webhook-gone';

export interface DestinationDeps {
  sql: Db;
  appUrl: string;
  /** null when the server sends no email (production without SMTP_URL). */
  mailer: Mailer | null;
  webhook: WebhookGuard & { timeoutMs?: number };
}

/**
 * One place a timer's messages go, with the two things the timer page offers for it: how its next message will
 * look, and a test sent now. Each builds its message with the code that builds the real one (build-message.ts).
 */
export interface Destination {
  name: DestinationName;
  label: string;
  /** Why a test cannot be sent there now, and what to do; null when it can. */
  unavailable: (source: MessageSource, deps: Pick<DestinationDeps, 'mailer'>) => string | null;
  /** The next message as it will be sent; null when the timer has no such destination to show. */
  preview: (source: MessageSource, appUrl: string) => MessagePreview | null;
  /** Sends a test now: resolves with a sentence saying it arrived, or throws DeliveryError with the receiver's answer. */
  sendTest: (source: MessageSource, deps: DestinationDeps) => Promise<string>;
}

const email: Destination = {
  name: 'email',
  label: 'Email',
  unavailable: (s, { mailer }) => {
    if (!mailer) return 'Email is off on this server (SMTP_URL is not set), so no email can be sent.';
    if (!s.timer.email) return 'Email is turned off for this timer. Turn it on under Notifications to send a test.';
    return null;
  },
  preview: (s, appUrl) => {
    // Each real email gets its own unsubscribe token; the preview shows where one goes, and makes none.
    const mail = composeEmail(appUrl, s, { messageId: 'msg_preview', unsubscribe: unsubscribeUrl(appUrl, 'preview'), notice: null });
    return { format: 'email', to: mail.to, subject: mail.subject, html: mail.html, text: mail.text };
  },
  sendTest: async (s, deps) => {
    // A real unsubscribe link: the test's footer works like a digest's.
    const unsubscribe = unsubscribeUrl(deps.appUrl, await createUnsubscribeToken(deps.sql, s.timer.id));
    const mail = markTestEmail(
      composeEmail(deps.appUrl, s, { messageId: testMessageId(), unsubscribe, notice: testEmailNotice(s.events.length > 0) }),
    );
    await deps.mailer!.send(mail);
    return `Delivered: the mail server accepted the test for ${mail.to}.`;
  },
};

const webhook: Destination = {
  name: 'webhook',
  label: 'Webhook',
  unavailable: (s) => (s.timer.webhookUrl ? null : 'This timer has no webhook address. Save one under Notifications to send a test.'),
  preview: (s, appUrl) => {
    if (!s.timer.webhookUrl) return null;
    const call = webhookCallOf(appUrl, s, 'msg_preview');
    return { format: 'json', url: call.url, body: call.body };
  },
  sendTest: async (s, deps) => {
    const call = webhookCallOf(deps.appUrl, s, testMessageId());
    const host = new URL(call.url).host;
    try {
      const status = await postWebhook(call.url, markTestWebhook(call.body), { ...deps.webhook, id: call.id, secret: call.secret });
      return `Delivered: the webhook at ${host} answered HTTP ${status}.`;
    } catch (err) {
      // A test changes nothing on the timer: a 410 is reported, and the webhook stays until a real digest meets it.
      if (err instanceof WebhookGoneError) {
        throw new DeliveryError(`The webhook at ${host} answered HTTP 410 Gone: the address no longer exists. Save a new one.`, false);
      }
      throw err;
    }
  },
};

/** Every destination with a preview and a test send, in the order the timer page shows them. */
export const DESTINATION_LIST: readonly Destination[] = [email, webhook];

export const destinationNamed = (name: DestinationName): Destination => DESTINATION_LIST.find((d) => d.name === name)!;
