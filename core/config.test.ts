import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the contract defaults and serves unset credentials from the stand-ins', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.appUrl).toBe('http://localhost:8080');
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/eventfinder');
    expect(c.gemini.model).toBe('gemini-flash-latest');
    expect(c.google.certsUrl).toBe('http://127.0.0.1:8090/oauth2/v3/certs');
    expect(c.stripe.apiUrl).toBe('http://127.0.0.1:8090');
    expect(c.standins).toEqual(['GOOGLE_CLIENT_ID', 'GEMINI_API_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
    expect(c.admin).toBeNull();
    expect(c.secureCookies).toBe(false);
  });

  it('sends set credentials to the real services', () => {
    const c = loadConfig({ GOOGLE_CLIENT_ID: 'abc', STRIPE_SECRET_KEY: 'sk_live_x', GEMINI_API_KEY: 'k' });
    expect(c.google).toEqual({
      clientId: 'abc',
      certsUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      gsiUrl: 'https://accounts.google.com/gsi/client',
    });
    expect(c.stripe.apiUrl).toBe('https://api.stripe.com');
    expect(c.gemini.baseUrl).toBeUndefined();
  });

  it('sends email to the SMTP stand-in outside production and turns it off in production without SMTP_URL', () => {
    expect(loadConfig({}).mail).toEqual({
      url: 'smtp://127.0.0.1:2525',
      from: 'Event Finder <no-reply@localhost>',
      standin: true,
      standinPort: 2525,
    });
    const prod = { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'a', GEMINI_API_KEY: 'b', STRIPE_SECRET_KEY: 'c', STRIPE_WEBHOOK_SECRET: 'd' };
    expect(loadConfig(prod).mail.url).toBeNull();
    expect(loadConfig({ ...prod, SMTP_URL: 'smtps://u:p@mail.example.com:465' }).mail).toMatchObject({
      url: 'smtps://u:p@mail.example.com:465',
      standin: false,
    });
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrowError(/SMTP_URL: must be smtp/);
    expect(loadConfig({ WEBHOOK_ALLOW: ' 127.0.0.1:9000 ,' }).webhookAllow).toEqual(['127.0.0.1:9000']);
  });

  it('refuses to start in production naming each missing credential', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', GEMINI_API_KEY: 'k' })).toThrowError(
      /GOOGLE_CLIENT_ID, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET/,
    );
  });

  it('names invalid values', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrowError(ConfigError);
    expect(() => loadConfig({ APP_URL: 'not a url' })).toThrowError(/APP_URL/);
    expect(() => loadConfig({ ADMIN_USER: 'ops' })).toThrowError(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ QUEUE_PREFIX: 'eventfinder' })).toThrowError(/QUEUE_PREFIX: must be a Redis Cluster hash tag/);
    expect(loadConfig({ QUEUE_PREFIX: '{blue}' }).queuePrefix).toBe('{blue}');
    expect(() => loadConfig({ TRUSTED_PROXY_HOPS: '-1' })).toThrowError(/TRUSTED_PROXY_HOPS/);
  });

  it('parses the website allow list and https cookies', () => {
    const c = loadConfig({ WEBSITE_FETCH_ALLOW: ' LocalHost:8090, example.test ', APP_URL: 'https://events.example.com/' });
    expect(c.websiteFetchAllow).toEqual(['localhost:8090', 'example.test']);
    expect(c.secureCookies).toBe(true);
    expect(c.appOrigin).toBe('https://events.example.com');
  });
});
