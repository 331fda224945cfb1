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

  it('refuses to start in production naming each missing credential', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', GEMINI_API_KEY: 'k' })).toThrowError(
      /GOOGLE_CLIENT_ID, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET/,
    );
  });

  it('reads GEMINI_THINKING: auto by default, a level or off, anything else named', () => {
    expect(loadConfig({}).gemini.thinking).toBe('auto');
    expect(loadConfig({ GEMINI_THINKING: ' Minimal ' }).gemini.thinking).toBe('minimal');
    expect(loadConfig({ GEMINI_THINKING: 'off', GEMINI_API_KEY: 'k' }).gemini.thinking).toBe('off');
    expect(() => loadConfig({ GEMINI_THINKING: 'none' })).toThrowError(/GEMINI_THINKING: must be auto, off, minimal, low, medium or high/);
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

  it('limits each user to 20 asks and timer saves a minute unless USER_RATE_PER_MINUTE says otherwise', () => {
    expect(loadConfig({}).userRatePerMinute).toBe(20);
    expect(loadConfig({ USER_RATE_PER_MINUTE: '60' }).userRatePerMinute).toBe(60);
    expect(() => loadConfig({ USER_RATE_PER_MINUTE: '0' })).toThrowError(/USER_RATE_PER_MINUTE/);
  });
});
