import { isIP } from 'node:net';
import type { Db } from '../../db/client';
import type { TimerChannel } from '../../db/timer-channels';
import { createUnsubscribeToken } from '../../db/unsubscribe-tokens';
import type { ChannelKindWire } from '../contract/channel-kinds';
import { channelDestination, type DestinationName, type MessagePreview } from '../contract/test-delivery';
import { channelMessageOf, composeEmail, type MessageSource, webhookCallOf } from './build-message';
import { CHANNEL_SERVICES, sendChannelMessage } from './channels/channel';
import { maskChannelUrl } from './channels/mask';
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
 * look, and a test sent now. Each builds its message with the code that builds the real one (build-message.ts,
 * core/delivery/channels/). `secrets` is false for a read-only token: addresses are left out.
 */
export interface Destination {
  name: DestinationName;
  kind: 'email' | 'webhook' | ChannelKindWire;
  label: (secrets: boolean) => string;
  /** Why a test cannot be sent there now, and what to do; null when it can. */
  unavailable: (source: MessageSource, deps: Pick<DestinationDeps, 'mailer'>) => string | null;
  /** The next message as it will be sent; null when the timer has no such destination to show. */
  preview: (source: MessageSource, appUrl: string, secrets: boolean) => MessagePreview | null;
  /** Sends a test now: resolves with a sentence saying it arrived, or throws DeliveryError with the receiver's answer. */
  sendTest: (source: MessageSource, deps: DestinationDeps) => Promise<string>;
}

const email: Destination = {
  name: 'email',
  kind: 'email',
  label: () => 'Email',
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
  kind: 'webhook',
  label: () => 'Webhook',
  unavailable: (s) => (s.timer.webhookUrl ? null : 'This timer has no webhook address. Save one under Notifications to send a test.'),
  preview: (s, appUrl, secrets) => {
    if (!s.timer.webhookUrl) return null;
    const call = webhookCallOf(appUrl, s, 'msg_preview');
    return { format: 'json', url: secrets ? call.url : null, body: call.body };
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

/** A host as a sentence names it: the name, or an IP address with its port. */
function hostOf(url: string): string {
  const u = new URL(url);
  return isIP(u.hostname.replace(/^\[|\]$/g, '')) ? u.host : u.hostname;
}

/**
 * One of the timer's channels: its preview is the request its service module builds (the JSON body, or ntfy's
 * headers and text) and its test is that request marked as a test, posted now and read by the service's rules.
 */
function channelDestinationOf(c: TimerChannel): Destination {
  const service = CHANNEL_SERVICES[c.kind];
  return {
    name: channelDestination(c.id),
    kind: c.kind,
    label: (secrets) => (secrets ? `${service.label} · ${maskChannelUrl(c.url)}` : service.label),
    unavailable: () =>
      c.stoppedAt
        ? (c.stoppedNotice ?? `This ${service.label} channel is stopped; remove it and add its new address in Manage Timers.`)
        : null,
    preview: (s, appUrl, secrets) => {
      if (c.stoppedAt) return null;
      const { headers, body } = service.request(channelMessageOf(appUrl, s), c.token);
      const url = secrets ? maskChannelUrl(c.url) : null;
      if (c.kind === 'ntfy') {
        // The token is a secret: the preview shows that it is sent, and its last four characters to a reader that may see secrets.
        const shown = { ...headers } as Extract<MessagePreview, { format: 'ntfy' }>['headers'];
        if (c.token) shown.authorization = `Bearer …${secrets ? c.token.slice(-4) : ''}`;
        return { format: 'ntfy', url, headers: shown, text: body };
      }
      return { format: c.kind, url, body: JSON.parse(body) } as MessagePreview;
    },
    sendTest: async (s, deps) => {
      const m = { ...channelMessageOf(deps.appUrl, s), test: true };
      const outcome = await sendChannelMessage(c.kind, c.url, c.token, m, deps.webhook);
      switch (outcome.kind) {
        case 'delivered':
          return `Delivered: ${service.label} at ${hostOf(c.url)} accepted the test.`;
        case 'retry': {
          const seconds = outcome.afterMs === null ? null : Math.max(1, Math.ceil(outcome.afterMs / 1000));
          const wait = seconds === null ? '' : ` Try the test again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
          throw new DeliveryError(`${outcome.sentence}${wait}`, false);
        }
        case 'refused':
          throw new DeliveryError(`${outcome.sentence} Check the address in Manage Timers.`, false);
        case 'gone':
          // A test changes nothing on the timer: the channel stays, and the next real digest that meets this answer stops it.
          throw new DeliveryError(`${outcome.sentence} Remove this channel and add its new address in Manage Timers.`, false);
      }
    },
  };
}

/** The timer's destinations, in the order the timer page shows them: email, the webhook, then each channel, oldest first. */
export const destinationsOf = (channels: readonly TimerChannel[]): Destination[] => [email, webhook, ...channels.map(channelDestinationOf)];
