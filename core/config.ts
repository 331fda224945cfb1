import { z } from 'zod';

/** Raised when the environment cannot produce a usable configuration; the message names every problem. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const url = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? fallback : v.trim()))
    .pipe(z.url({ protocol: /^(https?|postgres(ql)?|rediss?)$/ }));

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? String(fallback) : v.trim()))
    .pipe(z.string().regex(/^\d+$/, 'must be a whole number'))
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** Every variable of ../shared/CONTRACT.md plus the project's own operational knobs. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(8080, 0, 65535),
  APP_URL: url('http://localhost:8080'),
  DATABASE_URL: url('postgres://postgres@127.0.0.1:5432/eventfinder'),
  REDIS_URL: url('redis://127.0.0.1:6379'),
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CERTS_URL: url('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_GSI_URL: url('https://accounts.google.com/gsi/client'),
  GEMINI_API_KEY: optional,
  GEMINI_BASE_URL: optional.pipe(z.url().optional()),
  GEMINI_MODEL: z.string().trim().min(1).default('gemini-flash-latest'),
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_URL: url('https://api.stripe.com'),
  ADMIN_USER: optional,
  ADMIN_PASSWORD: optional,
  SUPPORT_EMAIL: z.string().trim().default('support@example.com').pipe(z.email()),
  WEBSITE_FETCH_ALLOW: z.string().default(''),
  WEBHOOK_ALLOW: z.string().default(''),
  SMTP_URL: optional.pipe(z.url({ protocol: /^smtps?$/, error: 'must be smtp://user:pass@host:port or smtps://…' }).optional()),
  MAIL_FROM: z.string().trim().min(1).default('Event Finder <no-reply@localhost>'),
  /** Port of the local SMTP stand-in (on STANDIN_URL's host); used only when SMTP_URL is unset outside production. */
  STANDIN_SMTP_PORT: int(2525, 0, 65535),
  /** Where `make dev` serves the local stand-ins; used only for credentials left unset outside production. */
  STANDIN_URL: url('http://127.0.0.1:8090'),
  /** BullMQ key prefix; the braces make it a Redis Cluster hash tag so every key of a queue shares one slot. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^\{[^{}]+\}$/, 'must be a Redis Cluster hash tag in braces, such as {eventfinder}')
    .default('{eventfinder}'),
  WORKER_CONCURRENCY: int(4, 1, 256),
  /** Searches one user may run at the same time (POST /api/ask answers 429 beyond it). */
  SEARCH_CONCURRENCY_PER_USER: int(2, 1, 100),
  TRUSTED_PROXY_HOPS: int(0, 0, 10),
  /** Upper bound of timer runs started per minute by each worker process (protects the Gemini quota). */
  WORKER_RATE_PER_MINUTE: int(120, 1, 100_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

const CREDENTIALS = ['GOOGLE_CLIENT_ID', 'GEMINI_API_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  appUrl: string;
  /** `APP_URL`'s origin, compared against `Origin` for CSRF. */
  appOrigin: string;
  secureCookies: boolean;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  google: { clientId: string; certsUrl: string; gsiUrl: string };
  gemini: { apiKey: string; baseUrl: string | undefined; model: string };
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string };
  admin: { user: string; password: string } | null;
  supportEmail: string;
  /** Lower-cased `host` or `host:port` entries exempt from the private-address guard. */
  websiteFetchAllow: string[];
  /** Same form as websiteFetchAllow, for timers' webhook addresses (`WEBHOOK_ALLOW`). */
  webhookAllow: string[];
  worker: { concurrency: number; ratePerMinute: number };
  /**
   * Reverse proxies (load balancers) in front of the api that append to X-Forwarded-For. 0: the socket's
   * address is the client's, and the header, which anyone can send, is ignored.
   */
  trustedProxyHops: number;
  search: { concurrencyPerUser: number };
  logLevel: string;
  /** Names of the credentials served by the local stand-ins (empty in production). */
  standins: string[];
  /** Origin of the local stand-ins (`STANDIN_URL`). */
  standinUrl: string;
  /**
   * Outgoing email. `url` null means email delivery is off (production without SMTP_URL); outside production
   * an unset SMTP_URL goes to the local SMTP stand-in (`standin` true).
   */
  mail: { url: string | null; from: string; standin: boolean; standinPort: number };
}

/** Parses the environment once; throws ConfigError naming every invalid or missing variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const missing = CREDENTIALS.filter((name) => e[name] === undefined);
  if (e.NODE_ENV === 'production' && missing.length > 0) {
    throw new ConfigError(`Missing required variables in production: ${missing.join(', ')}`);
  }
  if ((e.ADMIN_USER === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('ADMIN_USER and ADMIN_PASSWORD must be set together (or both left unset).');
  }
  const standin = e.STANDIN_URL.replace(/\/$/, '');
  const appUrl = e.APP_URL.replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    appUrl,
    appOrigin: new URL(appUrl).origin,
    secureCookies: appUrl.startsWith('https:'),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    queuePrefix: e.QUEUE_PREFIX,
    google: e.GOOGLE_CLIENT_ID
      ? { clientId: e.GOOGLE_CLIENT_ID, certsUrl: e.GOOGLE_CERTS_URL, gsiUrl: e.GOOGLE_GSI_URL }
      : {
          clientId: 'local-standin.apps.googleusercontent.com',
          certsUrl: `${standin}/oauth2/v3/certs`,
          gsiUrl: `${standin}/gsi/client`,
        },
    gemini: e.GEMINI_API_KEY
      ? { apiKey: e.GEMINI_API_KEY, baseUrl: e.GEMINI_BASE_URL, model: e.GEMINI_MODEL }
      : { apiKey: 'local-standin-key', baseUrl: e.GEMINI_BASE_URL ?? standin, model: e.GEMINI_MODEL },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY ?? 'sk_test_local_standin',
      webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? 'whsec_local_standin',
      apiUrl: e.STRIPE_SECRET_KEY ? e.STRIPE_API_URL : standin,
    },
    admin: e.ADMIN_USER && e.ADMIN_PASSWORD ? { user: e.ADMIN_USER, password: e.ADMIN_PASSWORD } : null,
    supportEmail: e.SUPPORT_EMAIL,
    websiteFetchAllow: hostList(e.WEBSITE_FETCH_ALLOW),
    webhookAllow: hostList(e.WEBHOOK_ALLOW),
    worker: { concurrency: e.WORKER_CONCURRENCY, ratePerMinute: e.WORKER_RATE_PER_MINUTE },
    search: { concurrencyPerUser: e.SEARCH_CONCURRENCY_PER_USER },
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    logLevel: e.LOG_LEVEL,
    standins: missing,
    standinUrl: standin,
    mail: {
      url: e.SMTP_URL ?? (e.NODE_ENV === 'production' ? null : `smtp://${new URL(standin).hostname}:${e.STANDIN_SMTP_PORT}`),
      from: e.MAIL_FROM,
      standin: e.SMTP_URL === undefined && e.NODE_ENV !== 'production',
      standinPort: e.STANDIN_SMTP_PORT,
    },
  };
}

function hostList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** Reads `.env` when present (Node's own loader) and parses; for process entry points only. */
export function loadConfigFromProcess(): Config {
  try {
    process.loadEnvFile();
  } catch {
    // No .env file: the environment alone configures the process.
  }
  return loadConfig(process.env);
}
