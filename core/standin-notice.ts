import type { Config } from './config';

const WHAT: Record<string, string> = {
  GOOGLE_CLIENT_ID: 'Google sign-in (anyone can sign in as any email address)',
  GEMINI_API_KEY: 'Gemini (canned answers)',
  STRIPE_SECRET_KEY: 'Stripe (no real payments)',
  STRIPE_WEBHOOK_SECRET: 'Stripe webhooks (a public signing secret)',
};

/**
 * The start-up warning that names every service served by the local stand-ins, or null when none is: a
 * deployment that left a credential unset outside production must see at once that it is not real (docs/decisions/sign-in-and-sessions.md).
 */
export function standinNotice(config: Config): string | null {
  const stood = config.standins.map((name) => WHAT[name] ?? name);
  if (config.mail.standin) stood.push('email (the local SMTP stand-in, not real inboxes)');
  if (config.sessionProof && config.standins.includes('GOOGLE_CLIENT_ID'))
    stood.push('SESSION_SECRET (a built-in value anyone can read in the source)');
  if (stood.length === 0) return null;
  return `STAND-INS IN USE, NOT FOR REAL USERS: ${stood.join('; ')}. Set the credentials in .env (see .env.example) to use the real services.`;
}
