import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Config } from '../config';
import { DeliveryError } from './errors';

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** `<id@host>`: the same on every attempt of one delivery (docs/decisions/delivery.md). */
  messageId?: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  send: (email: OutgoingEmail) => Promise<{ messageId: string }>;
  close: () => void;
}

// A hung SMTP server must not hold a delivery job for minutes (nodemailer's defaults are 2 and 10 minutes).
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

/** The SMTP mailer of SMTP_URL / MAIL_FROM, or null when email is off (production without SMTP_URL). */
export function createMailer(config: Config): Mailer | null {
  if (!config.mail.url) return null;
  const transport = nodemailer.createTransport({
    url: config.mail.url,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
  } as SMTPTransport.Options);
  return {
    send: async (email) => {
      try {
        const info = await transport.sendMail({ from: config.mail.from, ...email });
        return { messageId: String(info.messageId) };
      } catch (err) {
        throw smtpFailure(err);
      }
    },
    close: () => transport.close(),
  };
}

/** SMTP 5xx replies are permanent (bad address, refused content); everything else may pass on a retry. */
function smtpFailure(err: unknown): DeliveryError {
  const e = err as { responseCode?: number; response?: string; message?: string };
  const code = e.responseCode ?? 0;
  const detail = e.response ?? e.message ?? String(err);
  if (code >= 500 && code < 600) return new DeliveryError(`The mail server refused the message: ${detail}`, false, { cause: err });
  return new DeliveryError(`The mail server could not take the message now: ${detail}`, true, { cause: err });
}
