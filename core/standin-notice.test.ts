import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { standinNotice } from './standin-notice';

describe('standinNotice', () => {
  it('names every stood-in service, the built-in SESSION_SECRET among them, in the words .env uses', () => {
    const notice = standinNotice(loadConfig({}))!;
    expect(notice).toMatch(/^STAND-INS IN USE, NOT FOR REAL USERS: /);
    expect(notice).not.toContain('session proof');
    for (const what of [
      'Google sign-in',
      'Gemini',
      'Stripe (no real payments)',
      'Stripe webhooks',
      'email',
      'SESSION_SECRET (a built-in value',
    ]) {
      expect(notice).toContain(what);
    }
  });

  it('names only what is left, and is null when every service is real', () => {
    const real = {
      GOOGLE_CLIENT_ID: 'a',
      GEMINI_API_KEY: 'b',
      STRIPE_SECRET_KEY: 'c',
      STRIPE_WEBHOOK_SECRET: 'd',
      SESSION_SECRET: 's'.repeat(32),
    };
    expect(standinNotice(loadConfig({ ...real, GEMINI_API_KEY: '' }))).toMatch(/: Gemini \(canned answers\); email/);
    expect(standinNotice(loadConfig({ ...real, SMTP_URL: 'smtp://mail.example.com:587' }))).toBeNull();
  });
});
