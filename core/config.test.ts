import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the contract defaults and serves unset credentials from the stand-ins', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.appUrl).toBe('http://localhost:8080');
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/eventfinder');
    expect(c.gemini.model).toBe('gemini-flash-lite-latest');
    expect(c.google.certsUrl).toBe('http://127.0.0.1:8090/oauth2/v3/certs');
    expect(c.stripe.apiUrl).toBe('http://127.0.0.1:8090');
    expect(c.standins).toEqual(['GOOGLE_CLIENT_ID', 'GEMINI_API_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
    expect(c.admin).toBeNull();
    expect(c.secureCookies).toBe(false);
  });

  it('sends set credentials to the real services', () => {
    const c = loadConfig({ GOOGLE_CLIENT_ID: 'abc', STRIPE_SECRET_KEY: 'sk_live_x', GEMINI_API_KEY: 'k', SESSION_SECRET: 's'.repeat(32) });
    expect(c.google).toEqual({
      clientId: 'abc',
      certsUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      gsiUrl: 'https://accounts.google.com/gsi/client',
    });
    expect(c.stripe.apiUrl).toBe('https://api.stripe.com');
    expect(c.gemini.baseUrl).toBeUndefined();
  });

  it('signs session proofs with SESSION_SECRET; a built-in secret only with the Google sign-in stand-in', () => {
    expect(loadConfig({}).sessionProof).toEqual({ secret: expect.any(String), lifetimeMs: 60_000 });
    const prod = { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'a', GEMINI_API_KEY: 'b', STRIPE_SECRET_KEY: 'c', STRIPE_WEBHOOK_SECRET: 'd' };
    // Real Google sign-in with a secret anyone can read in the code would let anyone sign proofs: refused.
    expect(() => loadConfig(prod)).toThrow(/SESSION_SECRET is required with real Google sign-in \(GOOGLE_CLIENT_ID is set\)/);
    expect(() => loadConfig({ NODE_ENV: 'development', GOOGLE_CLIENT_ID: 'a' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', GOOGLE_CLIENT_ID: 'a' })).toThrow(/SESSION_PROOF_SECONDS=0 to turn session proofs off/);
    expect(loadConfig({ ...prod, SESSION_PROOF_SECONDS: '0' }).sessionProof).toBeNull();
    const secret = 's'.repeat(32);
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'a', SESSION_SECRET: secret }).sessionProof).toEqual({ secret, lifetimeMs: 60_000 });
    expect(loadConfig({ ...prod, SESSION_SECRET: secret, SESSION_PROOF_SECONDS: '15' }).sessionProof).toEqual({
      secret,
      lifetimeMs: 15_000,
    });
    expect(loadConfig({ SESSION_SECRET: secret, SESSION_PROOF_SECONDS: '0' }).sessionProof).toBeNull();
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET: must be at least 32 characters/);
    expect(() => loadConfig({ SESSION_PROOF_SECONDS: '3600' })).toThrow(/SESSION_PROOF_SECONDS/);
  });

  it('starts the worker and the tools without SESSION_SECRET: only the api signs proofs', () => {
    const prod = { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'a', GEMINI_API_KEY: 'b', STRIPE_SECRET_KEY: 'c', STRIPE_WEBHOOK_SECRET: 'd' };
    expect(() => loadConfig(prod, 'api')).toThrow(/SESSION_SECRET is required/);
    expect(loadConfig(prod, 'worker').sessionProof).toBeNull();
    expect(loadConfig(prod, 'tool').sessionProof).toBeNull();
  });

  it('defaults APP_URL to http://localhost:$PORT, so another port is still its own origin', () => {
    expect(loadConfig({}).appUrl).toBe('http://localhost:8080');
    const c = loadConfig({ PORT: '8180' });
    expect(c).toMatchObject({ appUrl: 'http://localhost:8180', appOrigin: 'http://localhost:8180', secureCookies: false });
    expect(c.standinWebhookUrl).toBe('http://localhost:8180/webhook');
    expect(loadConfig({ PORT: '8180', APP_URL: 'https://events.example.com' }).appUrl).toBe('https://events.example.com');
  });

  it('runs one api process unless API_PROCESSES says how many', () => {
    expect(loadConfig({}).apiProcesses).toBe(1);
    expect(loadConfig({ API_PROCESSES: '' }).apiProcesses).toBe(1);
    expect(loadConfig({ API_PROCESSES: 'auto' }).apiProcesses).toBe(availableParallelism());
    expect(loadConfig({ API_PROCESSES: '3' }).apiProcesses).toBe(3);
    expect(loadConfig({ API_PROCESSES: '1' }).apiProcesses).toBe(1);
    expect(() => loadConfig({ API_PROCESSES: '0' })).toThrowError(/API_PROCESSES/);
    expect(() => loadConfig({ API_PROCESSES: '65' })).toThrowError(/API_PROCESSES/);
    expect(() => loadConfig({ API_PROCESSES: 'many' })).toThrowError(/API_PROCESSES: must be auto or a whole number/);
  });

  it('reads MCP_ALLOWED_ORIGINS as origins, and refuses an entry that is not one', () => {
    expect(loadConfig({}).mcpAllowedOrigins).toEqual([]);
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: ' https://Agent.example/, http://localhost:3000 ' }).mcpAllowedOrigins).toEqual([
      'https://agent.example',
      'http://localhost:3000',
    ]);
    expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'agent.example' })).toThrow(/MCP_ALLOWED_ORIGINS: "agent.example" is not an origin/);
  });

  it('sends email to the SMTP stand-in outside production and turns it off in production without SMTP_URL', () => {
    expect(loadConfig({}).mail).toEqual({
      url: 'smtp://127.0.0.1:2525',
      from: 'Event Finder <no-reply@localhost>',
      standin: true,
      standinPort: 2525,
    });
    const prod = {
      NODE_ENV: 'production',
      GOOGLE_CLIENT_ID: 'a',
      GEMINI_API_KEY: 'b',
      STRIPE_SECRET_KEY: 'c',
      STRIPE_WEBHOOK_SECRET: 'd',
      SESSION_SECRET: 's'.repeat(32),
    };
    expect(loadConfig(prod).mail.url).toBeNull();
    expect(loadConfig({ ...prod, SMTP_URL: 'smtps://u:p@mail.example.com:465' }).mail).toMatchObject({
      url: 'smtps://u:p@mail.example.com:465',
      standin: false,
    });
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrowError(/SMTP_URL: must be smtp/);
    expect(loadConfig({ WEBHOOK_ALLOW: ' 127.0.0.1:9000 ,' }).webhookAllow).toEqual(['127.0.0.1:9000']);
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

  it('reads GEMINI_THINKING: auto by default, a level or off, anything else named', () => {
    expect(loadConfig({}).gemini.thinking).toBe('auto');
    expect(loadConfig({ GEMINI_THINKING: ' Minimal ' }).gemini.thinking).toBe('minimal');
    expect(loadConfig({ GEMINI_THINKING: 'off', GEMINI_API_KEY: 'k' }).gemini.thinking).toBe('off');
    expect(() => loadConfig({ GEMINI_THINKING: 'none' })).toThrowError(/GEMINI_THINKING: must be auto, off, minimal, low, medium or high/);
  });

  it("extracts events with Gemini 2.5 Flash-Lite unless GEMINI_EXTRACTION_MODEL names another model, or answer for the answer's", () => {
    expect(loadConfig({}).gemini.extractionModel).toBe('gemini-2.5-flash-lite');
    expect(loadConfig({ GEMINI_EXTRACTION_MODEL: 'gemini-3.5-flash-lite' }).gemini.extractionModel).toBe('gemini-3.5-flash-lite');
    expect(loadConfig({ GEMINI_EXTRACTION_MODEL: ' Answer ' }).gemini.extractionModel).toBeNull();
  });

  it('lets a search pay for 2 Google Search queries unless GEMINI_MAX_SEARCH_QUERIES says otherwise, 1 to 20', () => {
    expect(loadConfig({}).gemini.maxSearchQueries).toBe(2);
    expect(loadConfig({ GEMINI_MAX_SEARCH_QUERIES: '1' }).gemini.maxSearchQueries).toBe(1);
    expect(() => loadConfig({ GEMINI_MAX_SEARCH_QUERIES: '0' })).toThrowError(/GEMINI_MAX_SEARCH_QUERIES/);
    expect(() => loadConfig({ GEMINI_MAX_SEARCH_QUERIES: '21' })).toThrowError(/GEMINI_MAX_SEARCH_QUERIES/);
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

  it('reads the scale-out settings: cluster nodes, the global timer-run rate, the worker metrics port', () => {
    const c = loadConfig({ REDIS_CLUSTER_NODES: ' 10.0.0.5:7000, redis-b:7001 ', TIMER_RUNS_PER_MINUTE: '600' });
    expect(c.redisClusterNodes).toEqual([
      { host: '10.0.0.5', port: 7000 },
      { host: 'redis-b', port: 7001 },
    ]);
    expect(c.worker.timerRunsPerMinute).toBe(600);
    expect(loadConfig({}).redisClusterNodes).toBeNull();
    expect(loadConfig({}).worker).toMatchObject({ timerRunsPerMinute: 120, metricsPort: null });
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis-a' })).toThrowError(/REDIS_CLUSTER_NODES.*host:port/);
    expect(() => loadConfig({ WORKER_RATE_PER_MINUTE: '60' })).toThrowError(/renamed TIMER_RUNS_PER_MINUTE/);
    expect(() => loadConfig({ WORKER_METRICS_PORT: '9464' })).toThrowError(/needs ADMIN_USER and ADMIN_PASSWORD/);
    expect(loadConfig({ WORKER_METRICS_PORT: '9464', ADMIN_USER: 'ops', ADMIN_PASSWORD: 'pw' }).worker.metricsPort).toBe(9464);
  });

  it('gives a timer run 5 minutes an attempt unless TIMER_RUN_TIMEOUT_SECONDS says otherwise, under the abandoned hour', () => {
    expect(loadConfig({}).worker.runTimeoutMs).toBe(300_000);
    expect(loadConfig({ TIMER_RUN_TIMEOUT_SECONDS: '90' }).worker.runTimeoutMs).toBe(90_000);
    expect(() => loadConfig({ TIMER_RUN_TIMEOUT_SECONDS: '3600' })).toThrowError(/TIMER_RUN_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ TIMER_RUN_TIMEOUT_SECONDS: '0' })).toThrowError(/TIMER_RUN_TIMEOUT_SECONDS/);
  });

  it('lets an ask wait 90 s for each piece of answer unless ASK_IDLE_TIMEOUT_SECONDS says otherwise', () => {
    expect(loadConfig({}).search.answerIdleMs).toBe(90_000);
    expect(loadConfig({ ASK_IDLE_TIMEOUT_SECONDS: '30' }).search.answerIdleMs).toBe(30_000);
    expect(() => loadConfig({ ASK_IDLE_TIMEOUT_SECONDS: '5' })).toThrowError(/ASK_IDLE_TIMEOUT_SECONDS/);
  });
});
