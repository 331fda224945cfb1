import { randomUUID } from 'node:crypto';
import type { WebhookDelivery } from '../contract/webhook-delivery';
import type { OutgoingEmail } from './mailer';

/** What marks a test in a subject line and in a chat service's summary. */
export const TEST_MARK = '[Test]';

/** The first line of a test email's body, where a digest puts a notice about the timer. */
export function testEmailNotice(hasEvents: boolean): string {
  const shows = hasEvents
    ? 'It shows the events of the timer’s last run as its next digest would; nothing was searched or marked as seen.'
    : 'The timer has not found events yet; its digests will list them here.';
  return `This is a test, sent from Manage Timers to check that this timer’s emails arrive. ${shows}`;
}

/** At most this many tests per user in this many seconds (page, /v1 and MCP together). */
export const TEST_SENDS = { points: 5, seconds: 600 } as const;

/** A test's own id (`webhook-id`, the Message-ID's local part): never a delivery's, so nothing drops a real digest for it. */
export const testMessageId = () => `msg_test_${randomUUID()}`;

/** The email as built, its subject marked as a test (the body carries TEST_EMAIL_NOTICE as its notice). */
export function markTestEmail(email: OutgoingEmail): OutgoingEmail {
  return { ...email, subject: `${TEST_MARK} ${email.subject}` };
}

/** The webhook body as built, with `"test": true` and the chat summaries marked; signed after this, as any other. */
export function markTestWebhook(body: WebhookDelivery): WebhookDelivery {
  return {
    ...body,
    text: `${TEST_MARK} ${body.text}`,
    content: `${TEST_MARK} ${body.content}`.slice(0, 2000),
    test: true,
  };
}
