import type { Config } from '../config';

/** The start-up line about email, so an operator sees at once whether digests and alerts will go out. */
export function emailStatusLine(config: Config): string {
  if (!config.mail.url) return 'email delivery is off: SMTP_URL is not set (feeds and webhooks still work)';
  if (config.mail.standin) return `email goes to the local SMTP stand-in (${config.mail.url}), not to real inboxes`;
  return `email goes out through ${new URL(config.mail.url).host} as ${config.mail.from}`;
}
