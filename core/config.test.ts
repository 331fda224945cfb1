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

  it('gives the browser the stand-ins at STANDIN_PUBLIC_URL and the servers at STANDIN_URL', () => {
    const same = loadConfig({ STANDIN_URL: 'http://127.0.0.1:9100' });
    expect(same.standinPublicUrl).toBe('http://127.0.0.1:9100');
    expect(same.google.gsiUrl).toBe('http://127.0.0.1:9100/gsi/client');
    expect(same.standinWebhookUrl).toBe('http://localhost:8080/webhook');
    expect(same.standinStateDir).toBeUndefined();
    const apart = loadConfig({
      STANDIN_URL: 'http://standins:8090',
      STANDIN_PUBLIC_URL: 'http://localhost:8090/',
      STANDIN_WEBHOOK_URL: 'http://api:8080/webhook',
      STANDIN_STATE_DIR: '/home/node/.dev-state',
    });
    expect(apart.google.gsiUrl).toBe('http://localhost:8090/gsi/client');
    expect(apart.google.certsUrl).toBe('http://standins:8090/oauth2/v3/certs');
    expect(apart.stripe.apiUrl).toBe('http://standins:8090');
    expect(apart.standinWebhookUrl).toBe('http://api:8080/webhook');
    expect(apart.standinStateDir).toBe('/home/node/.dev-state');
    expect(() => loadConfig({ STANDIN_PUBLIC_URL: 'localhost:8090' })).toThrowError(/STANDIN_PUBLIC_URL/);
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
