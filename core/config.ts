import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { type Price, priceSchema, priceTable, type ServiceTierName } from './gemini/prices';

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

const MAX_API_PROCESSES = 64;

/** Every variable of docs/contract.md plus the project's own operational knobs. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(8080, 0, 65535),
  /**
   * api processes serving PORT together (node:cluster): 1 (the default) is a single process, and a deployment
   * scales with more api replicas; `auto` is one per CPU this process may use (Node's os.availableParallelism(),
   * which counts a container's CPU limit), at most 64.
   */
  API_PROCESSES: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? '1' : v.trim().toLowerCase()))
    .pipe(z.string().regex(/^(auto|\d+)$/, 'must be auto or a whole number'))
    .transform((v) => (v === 'auto' ? Math.min(availableParallelism(), MAX_API_PROCESSES) : Number(v)))
    .pipe(z.number().int().min(1).max(MAX_API_PROCESSES)),
  /** Unset: http://localhost:$PORT, so a product run on another port still knows its own address. */
  APP_URL: optional.pipe(z.optional(z.url({ protocol: /^https?$/ }))),
  DATABASE_URL: url('postgres://postgres@127.0.0.1:5432/eventfinder'),
  REDIS_URL: url('redis://127.0.0.1:6379'),
  /** Seed nodes of a Redis Cluster (`host:port,host:port`); when set, api and worker use it instead of REDIS_URL's server. */
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[^\s:,]+:\d{1,5}$/, 'must be comma-separated host:port entries, such as 10.0.0.5:7000'))),
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CERTS_URL: url('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_GSI_URL: url('https://accounts.google.com/gsi/client'),
  GEMINI_API_KEY: optional,
  GEMINI_BASE_URL: optional.pipe(z.url().optional()),
  /**
   * The model that answers searches: Google's alias of its newest Flash-Lite, whose grounded answer costs a plan
   * at full use under 40% of its price where a Flash's does not (docs/decisions/gemini-and-cost.md); any model name may be set.
   */
  GEMINI_MODEL: z.string().trim().min(1).default('gemini-flash-lite-latest'),
  /**
   * The model that turns an answer into its events (structured output, no Google Search): the cheapest row of
   * the price table by default, since the call only copies what the answer says (docs/decisions/gemini-and-cost.md); `answer` asks
   * the model that wrote the answer.
   */
  GEMINI_EXTRACTION_MODEL: z.string().trim().min(1).default('gemini-2.5-flash-lite'),
  /** Thinking settings sent to Gemini: `auto` (per model family, core/gemini/thinking.ts), a level, or `off`. */
  GEMINI_THINKING: z
    .string()
    .trim()
    .toLowerCase()
    .default('auto')
    .pipe(z.enum(['auto', 'off', 'minimal', 'low', 'medium', 'high'], 'must be auto, off, minimal, low, medium or high')),
  /** The tier timer runs ask on: flex (half the token price, answered within minutes) or standard. */
  GEMINI_TIMER_TIER: z
    .string()
    .trim()
    .toLowerCase()
    .default('flex')
    .pipe(z.enum(['flex', 'standard'], 'must be flex or standard')),
  /** This deployment's monthly Gemini budget in USD; reached, timer runs are skipped until next month. */
  GEMINI_MONTHLY_BUDGET_USD: optional.pipe(
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be a number of US dollars, such as 200')
      .transform(Number)
      .pipe(z.number().positive('must be more than 0'))
      .optional(),
  ),
  /** Google Search queries one search may pay for; its later calls run without grounding (docs/decisions/gemini-and-cost.md). */
  GEMINI_MAX_SEARCH_QUERIES: int(2, 1, 20),
  /** Rows laid over the default price table (core/gemini/prices.ts), as a JSON array. */
  GEMINI_PRICES: z
    .string()
    .trim()
    .default('[]')
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON array of price rows, such as [{"model":"gemini-3.8-flash",…}]' });
        return z.NEVER;
      }
    })
    .pipe(z.array(priceSchema)),
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_URL: url('https://api.stripe.com'),
  ADMIN_USER: optional,
  ADMIN_PASSWORD: optional,
  SUPPORT_EMAIL: z.string().trim().default('support@example.com').pipe(z.email()),
  // A tile URL template ({z}/{x}/{y}); unset turns the map of a run's events off (docs/decisions/timers-in-words-and-filters.md).
  MAP_TILE_URL: optional.pipe(
    z
      .string()
      .regex(/^https?:\/\/\S*\{z\}\S*\{x\}\S*\{y\}/, 'must be an http(s) tile URL template with {z}, {x} and {y}')
      .optional(),
  ),
  MAP_ATTRIBUTION: z.string().trim().default('© OpenStreetMap contributors'),
  WEBSITE_FETCH_ALLOW: z.string().default(''),
  /**
   * The longest one website reading may take in the reading pool, its wait for a thread included, before it is
   * dropped (its thread ended when it runs), in ms.
   */
  READING_TIME_LIMIT_MS: int(3000, 100, 60_000),
  /** The heap one reading thread may use, in MB; past it the thread is ended and the reading dropped. */
  READING_HEAP_MB: int(256, 32, 4096),
  /** The most events (occurrences included) one website reading may give back; past it the reading is dropped. */
  READING_MAX_EVENTS: int(20_000, 100, 1_000_000),
  /** Reading threads per api or worker process. */
  READING_THREADS: int(2, 1, 64),
  /** Readings per api or worker process that may wait for a reading thread; past it a reading is refused (503). */
  READING_QUEUE_LIMIT: int(32, 1, 10_000),
  /**
   * Whether the model's events are checked against the pages they come from (docs/decisions/checked-events.md): `on`, or `off` for an
   * operator who wants no automatic page fetches (events then carry no verification).
   */
  EVENT_CHECKING: z
    .string()
    .trim()
    .toLowerCase()
    .default('on')
    .pipe(z.enum(['on', 'off'], 'must be on or off')),
  /** The most source pages one search reads to check its events. */
  EVENT_CHECK_MAX_PAGES: int(5, 1, 10),
  WEBHOOK_ALLOW: z.string().default(''),
  /** Origins (besides APP_URL's) whose pages may call /mcp, comma-separated, e.g. `https://agent.example`. */
  MCP_ALLOWED_ORIGINS: z.string().default(''),
  /** Origins whose pages may call /v1 with a token (CORS, never with credentials): `*` for any, or a comma-separated list. */
  API_CORS_ORIGINS: z.string().trim().default('*'),
  SMTP_URL: optional.pipe(z.url({ protocol: /^smtps?$/, error: 'must be smtp://user:pass@host:port or smtps://…' }).optional()),
  MAIL_FROM: z.string().trim().min(1).default('Event Finder <no-reply@localhost>'),
  /** Port of the local SMTP stand-in (on STANDIN_URL's host); used only when SMTP_URL is unset outside production. */
  STANDIN_SMTP_PORT: int(2525, 0, 65535),
  /** Where `make dev` serves the local stand-ins; used only for credentials left unset outside production. */
  STANDIN_URL: url('http://127.0.0.1:8090'),
  /**
   * Where the browser reaches the stand-ins (the sign-in script, Stripe's hosted pages), when that differs from
   * where the servers reach them: in containers the api calls http://standins:8090, the browser localhost:8090.
   */
  STANDIN_PUBLIC_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** The stand-ins process only: where the Stripe stand-in delivers webhooks (default `APP_URL/webhook`). */
  STANDIN_WEBHOOK_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** The stand-ins process only: a directory that keeps the Stripe stand-in's account between runs. */
  STANDIN_STATE_DIR: optional,
  /** BullMQ key prefix; the braces make it a Redis Cluster hash tag so every key of a queue shares one slot. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^\{[^{}]+\}$/, 'must be a Redis Cluster hash tag in braces, such as {eventfinder}')
    .default('{eventfinder}'),
  /** Timer runs one worker process runs at once; a run mostly waits on Gemini (seconds), so many (docs/decisions/timers.md). */
  WORKER_CONCURRENCY: int(50, 1, 256),
  /** Postgres connections of one worker process; a run holds one only between its statements (docs/decisions/timers.md). */
  WORKER_DATABASE_POOL: int(10, 1, 100),
  /** Searches one user may run at the same time (POST /api/ask answers 429 beyond it). */
  SEARCH_CONCURRENCY_PER_USER: int(2, 1, 100),
  /** How long an ask waits for the next piece of answer (the first one included) before it gives up. */
  ASK_IDLE_TIMEOUT_SECONDS: int(90, 10, 600),
  /** Reverse proxies in front of the api that append to X-Forwarded-For (the sign-in limit reads the client from it). */
  TRUSTED_PROXY_HOPS: int(0, 0, 10),
  /** POST /api/ask and POST /api/schedule requests one user may send per minute (429 beyond it). */
  USER_RATE_PER_MINUTE: int(20, 1, 10_000),
  /** Sentences one user may have described (POST /api/timers/describe, /v1's too) per hour: uncharged Gemini calls. */
  DESCRIBE_PER_HOUR: int(30, 1, 10_000),
  /** GET /api/* requests one signed-in user may send per minute (the session check aside): generous, a page polls. */
  USER_GETS_PER_MINUTE: int(600, 1, 100_000),
  /** Timer runs started per minute by all workers together (one limit in Redis; protects the Gemini quota). */
  TIMER_RUNS_PER_MINUTE: int(120, 1, 1_000_000),
  /**
   * The longest one attempt of a timer run may take before it is given up and retried (a hung connection to
   * Gemini would hold the worker's slot for good). Below an hour, after which a run counts as abandoned.
   */
  TIMER_RUN_TIMEOUT_SECONDS: int(300, 10, 1800),
  /** Renamed TIMER_RUNS_PER_MINUTE; refused below so a deployment still setting it learns that. */
  WORKER_RATE_PER_MINUTE: optional,
  /** Port of a worker's own /metrics and /healthz server; unset: none. */
  WORKER_METRICS_PORT: optional.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a port number')
      .transform(Number)
      .pipe(z.number().max(65535))
      .optional(),
  ),
  /**
   * Secret the calendar feed tokens are derived from (with a random nonce per timer); at least 32 characters.
   * Unset in production turns the feeds off; outside production a fixed local value stands in.
   */
  FEED_TOKEN_SECRET: optional.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /**
   * Secret the short-lived session proofs are signed with (HMAC-SHA256, shared by every api process); at least
   * 32 characters. Required with real Google sign-in (GOOGLE_CLIENT_ID set) unless SESSION_PROOF_SECONDS=0; a
   * built-in value stands in only while the Google sign-in stand-in is in use (docs/decisions/sign-in-and-sessions.md).
   */
  SESSION_SECRET: optional.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /** How long a session proof spares the Postgres lookup, in seconds; 0 turns the proofs off. */
  SESSION_PROOF_SECONDS: int(60, 0, 600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type GeminiThinking = 'auto' | 'off' | 'minimal' | 'low' | 'medium' | 'high';

const CREDENTIALS = ['GOOGLE_CLIENT_ID', 'GEMINI_API_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  /** api processes sharing the port (API_PROCESSES; api/processes.ts). */
  apiProcesses: number;
  appUrl: string;
  /** `APP_URL`'s origin, compared against `Origin` for CSRF. */
  appOrigin: string;
  secureCookies: boolean;
  databaseUrl: string;
  redisUrl: string;
  /** Redis Cluster seed nodes; null: the single server of `redisUrl`. */
  redisClusterNodes: { host: string; port: number }[] | null;
  queuePrefix: string;
  google: { clientId: string; certsUrl: string; gsiUrl: string };
  gemini: {
    apiKey: string;
    baseUrl: string | undefined;
    model: string;
    /**
     * `GEMINI_EXTRACTION_MODEL`: the model of the extraction call (an answer → its events), or null to ask the
     * model that wrote the answer.
     */
    extractionModel: string | null;
    /** `GEMINI_THINKING`: `auto`, `off` (no thinking config at all) or a level forced on every model. */
    thinking: GeminiThinking;
    /** What calls cost: Google's published prices with `GEMINI_PRICES` laid over them. */
    prices: Price[];
    /** `GEMINI_TIMER_TIER`: the service tier of timer runs' answers (asks always use standard). */
    timerTier: ServiceTierName;
    /** `GEMINI_MONTHLY_BUDGET_USD`, or null for no spend guard. */
    monthlyBudgetUsd: number | null;
    /** `GEMINI_MAX_SEARCH_QUERIES`: once a search's calls ran this many, its later calls run without grounding. */
    maxSearchQueries: number;
  };
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string };
  admin: { user: string; password: string } | null;
  supportEmail: string;
  /** `MAP_TILE_URL` and `MAP_ATTRIBUTION`: the map of a run's in-person events; null while the map is off. */
  map: { tileUrl: string; attribution: string } | null;
  /** Lower-cased `host` or `host:port` entries exempt from the private-address guard. */
  websiteFetchAllow: string[];
  /**
   * `EVENT_CHECKING` and `EVENT_CHECK_MAX_PAGES`: the model's events checked against their source pages, at most
   * `maxPages` pages a search, fetched with `userAgent`; null when checking is off.
   */
  eventChecking: { maxPages: number; userAgent: string } | null;
  /** Same form as websiteFetchAllow, for timers' webhook addresses (`WEBHOOK_ALLOW`). */
  webhookAllow: string[];
  /** Origins besides `appOrigin` whose pages may call /mcp (`MCP_ALLOWED_ORIGINS`). */
  mcpAllowedOrigins: string[];
  /** Origins whose pages may call /v1 with a bearer token (`API_CORS_ORIGINS`): `*` for any. */
  apiCorsOrigins: '*' | string[];
  /** The limits of the reading pool, where every website is parsed (`READING_*`, docs/decisions/reading-sandbox.md). */
  reading: { timeLimitMs: number; heapMb: number; maxEvents: number; threads: number; queueLimit: number };
  worker: {
    concurrency: number;
    /** Postgres pool size of a worker process (`WORKER_DATABASE_POOL`). */
    databasePool: number;
    /** Timer runs started per minute across every worker process (`TIMER_RUNS_PER_MINUTE`). */
    timerRunsPerMinute: number;
    /** The longest one attempt of a timer run may take, in ms (`TIMER_RUN_TIMEOUT_SECONDS`). */
    runTimeoutMs: number;
    /** Port of the worker's metrics server, or null for none. */
    metricsPort: number | null;
  };
  /**
   * Reverse proxies (load balancers) in front of the api that append to X-Forwarded-For. 0: the socket's
   * address is the client's, and the header, which anyone can send, is ignored.
   */
  trustedProxyHops: number;
  search: {
    concurrencyPerUser: number;
    /** How long an ask waits for the next piece of answer, in ms (`ASK_IDLE_TIMEOUT_SECONDS`). */
    answerIdleMs: number;
  };
  /** Requests per minute one user may send to POST /api/ask and POST /api/schedule together. */
  userRatePerMinute: number;
  /** Sentences one user may have described per hour (`DESCRIBE_PER_HOUR`). */
  describePerHour: number;
  /** GET /api/* requests one user may send per minute (`USER_GETS_PER_MINUTE`). */
  userGetsPerMinute: number;
  logLevel: string;
  /** Secret of the calendar feed tokens; null when feeds are off (production without FEED_TOKEN_SECRET). */
  feedTokenSecret: string | null;
  /**
   * Short-lived signed session proofs (docs/decisions/sign-in-and-sessions.md); null when off (SESSION_PROOF_SECONDS=0), so every
   * signed-in request looks its session up in Postgres.
   */
  sessionProof: { secret: string; lifetimeMs: number } | null;
  /** Names of the credentials served by the local stand-ins (empty in production). */
  standins: string[];
  /** Origin of the local stand-ins as the api and worker reach them (`STANDIN_URL`). */
  standinUrl: string;
  /** Origin of the local stand-ins as the browser reaches them (`STANDIN_PUBLIC_URL`, else `STANDIN_URL`). */
  standinPublicUrl: string;
  /** Where the Stripe stand-in delivers webhooks (`STANDIN_WEBHOOK_URL`, else `APP_URL/webhook`). */
  standinWebhookUrl: string;
  /** Directory of the stand-ins' saved state (`STANDIN_STATE_DIR`); undefined: memory only. */
  standinStateDir: string | undefined;
  /**
   * Outgoing email. `url` null means email delivery is off (production without SMTP_URL); outside production
   * an unset SMTP_URL goes to the local SMTP stand-in (`standin` true).
   */
  mail: { url: string | null; from: string; standin: boolean; standinPort: number };
}

/**
 * Which process reads the configuration: only the api signs session proofs, so only the api needs
 * SESSION_SECRET; the worker, the migrations and the stand-ins start without it.
 */
export type ConfigRole = 'api' | 'worker' | 'tool';

/** Parses the environment once; throws ConfigError naming every invalid or missing variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, role: ConfigRole = 'api'): Config {
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
  if (e.WORKER_RATE_PER_MINUTE !== undefined) {
    throw new ConfigError(
      'WORKER_RATE_PER_MINUTE was renamed TIMER_RUNS_PER_MINUTE: it limits timer runs per minute across all workers together. Set that instead.',
    );
  }
  if (e.WORKER_METRICS_PORT !== undefined && (e.ADMIN_USER === undefined || e.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('WORKER_METRICS_PORT needs ADMIN_USER and ADMIN_PASSWORD: the metrics are served behind that basic auth.');
  }
  const standin = e.STANDIN_URL.replace(/\/$/, '');
  const geminiChoices = {
    model: e.GEMINI_MODEL,
    extractionModel: e.GEMINI_EXTRACTION_MODEL.toLowerCase() === 'answer' ? null : e.GEMINI_EXTRACTION_MODEL,
    thinking: e.GEMINI_THINKING,
    prices: priceTable(e.GEMINI_PRICES),
    timerTier: e.GEMINI_TIMER_TIER,
    monthlyBudgetUsd: e.GEMINI_MONTHLY_BUDGET_USD ?? null,
    maxSearchQueries: e.GEMINI_MAX_SEARCH_QUERIES,
  };
  const standinPublic = (e.STANDIN_PUBLIC_URL ?? e.STANDIN_URL).replace(/\/$/, '');
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    apiProcesses: e.API_PROCESSES,
    appUrl,
    appOrigin: new URL(appUrl).origin,
    secureCookies: appUrl.startsWith('https:'),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisClusterNodes: e.REDIS_CLUSTER_NODES.length
      ? e.REDIS_CLUSTER_NODES.map((node) => {
          const at = node.lastIndexOf(':');
          return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
        })
      : null,
    queuePrefix: e.QUEUE_PREFIX,
    google: e.GOOGLE_CLIENT_ID
      ? { clientId: e.GOOGLE_CLIENT_ID, certsUrl: e.GOOGLE_CERTS_URL, gsiUrl: e.GOOGLE_GSI_URL }
      : {
          clientId: 'local-standin.apps.googleusercontent.com',
          certsUrl: `${standin}/oauth2/v3/certs`,
          // The page's browser loads this one, so it is the browser's address of the stand-ins.
          gsiUrl: `${standinPublic}/gsi/client`,
        },
    gemini: e.GEMINI_API_KEY
      ? { apiKey: e.GEMINI_API_KEY, baseUrl: e.GEMINI_BASE_URL, ...geminiChoices }
      : { apiKey: 'local-standin-key', baseUrl: e.GEMINI_BASE_URL ?? standin, ...geminiChoices },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY ?? 'sk_test_local_standin',
      webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? 'whsec_local_standin',
      apiUrl: e.STRIPE_SECRET_KEY ? e.STRIPE_API_URL : standin,
    },
    admin: e.ADMIN_USER && e.ADMIN_PASSWORD ? { user: e.ADMIN_USER, password: e.ADMIN_PASSWORD } : null,
    supportEmail: e.SUPPORT_EMAIL,
    map: e.MAP_TILE_URL ? { tileUrl: e.MAP_TILE_URL, attribution: e.MAP_ATTRIBUTION } : null,
    websiteFetchAllow: hostList(e.WEBSITE_FETCH_ALLOW),
    eventChecking:
      e.EVENT_CHECKING === 'on'
        ? { maxPages: e.EVENT_CHECK_MAX_PAGES, userAgent: `EventFinder/1.0 (+checks event dates against their pages; ${appUrl})` }
        : null,
    webhookAllow: hostList(e.WEBHOOK_ALLOW),
    mcpAllowedOrigins: originList(e.MCP_ALLOWED_ORIGINS, 'MCP_ALLOWED_ORIGINS'),
    apiCorsOrigins: e.API_CORS_ORIGINS === '*' ? '*' : originList(e.API_CORS_ORIGINS, 'API_CORS_ORIGINS'),
    reading: {
      timeLimitMs: e.READING_TIME_LIMIT_MS,
      heapMb: e.READING_HEAP_MB,
      maxEvents: e.READING_MAX_EVENTS,
      threads: e.READING_THREADS,
      queueLimit: e.READING_QUEUE_LIMIT,
    },
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      databasePool: e.WORKER_DATABASE_POOL,
      timerRunsPerMinute: e.TIMER_RUNS_PER_MINUTE,
      runTimeoutMs: e.TIMER_RUN_TIMEOUT_SECONDS * 1000,
      metricsPort: e.WORKER_METRICS_PORT ?? null,
    },
    search: { concurrencyPerUser: e.SEARCH_CONCURRENCY_PER_USER, answerIdleMs: e.ASK_IDLE_TIMEOUT_SECONDS * 1000 },
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    userRatePerMinute: e.USER_RATE_PER_MINUTE,
    describePerHour: e.DESCRIBE_PER_HOUR,
    userGetsPerMinute: e.USER_GETS_PER_MINUTE,
    logLevel: e.LOG_LEVEL,
    feedTokenSecret: e.FEED_TOKEN_SECRET ?? (e.NODE_ENV === 'production' ? null : 'local-development-feed-token-secret-not-for-production'),
    sessionProof: sessionProof(
      e.SESSION_SECRET,
      e.SESSION_PROOF_SECONDS,
      e.GOOGLE_CLIENT_ID === undefined && e.NODE_ENV !== 'production',
      role,
    ),
    standins: missing,
    standinUrl: standin,
    standinPublicUrl: standinPublic,
    standinWebhookUrl: e.STANDIN_WEBHOOK_URL ?? `${appUrl}/webhook`,
    standinStateDir: e.STANDIN_STATE_DIR,
    mail: {
      url: e.SMTP_URL ?? (e.NODE_ENV === 'production' ? null : `smtp://${new URL(standin).hostname}:${e.STANDIN_SMTP_PORT}`),
      from: e.MAIL_FROM,
      standin: e.SMTP_URL === undefined && e.NODE_ENV !== 'production',
      standinPort: e.STANDIN_SMTP_PORT,
    },
  };
}

/**
 * The proofs' secret. A built-in one only while the Google sign-in stand-in is in use, where anyone may sign in
 * as anyone anyway; with real Google sign-in a known secret would let anyone sign proofs (docs/decisions/sign-in-and-sessions.md).
 */
function sessionProof(secret: string | undefined, seconds: number, googleStandin: boolean, role: ConfigRole): Config['sessionProof'] {
  if (seconds === 0) return null;
  if (secret) return { secret, lifetimeMs: seconds * 1000 };
  if (googleStandin) return { secret: 'local-development-session-secret-not-for-production', lifetimeMs: seconds * 1000 };
  if (role !== 'api') return null; // never signs or reads a proof
  throw new ConfigError(
    'SESSION_SECRET is required with real Google sign-in (GOOGLE_CLIENT_ID is set): session proofs need a secret only this deployment knows. Set SESSION_SECRET to 32 or more random characters (openssl rand -base64 48), or SESSION_PROOF_SECONDS=0 to turn session proofs off.',
  );
}

/** Each entry's origin (`scheme://host[:port]`), so a trailing slash or path does not matter. */
function originList(value: string, name: string): string[] {
  return hostList(value).map((entry) => {
    try {
      return new URL(entry).origin;
    } catch {
      throw new ConfigError(`${name}: "${entry}" is not an origin; write each as scheme://host[:port], separated by commas.`);
    }
  });
}

function hostList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

/** Reads `.env` when present (Node's own loader) and parses; for process entry points only. */
export function loadConfigFromProcess(role: ConfigRole = 'tool'): Config {
  try {
    process.loadEnvFile();
  } catch {
    // No .env file: the environment alone configures the process.
  }
  return loadConfig(process.env, role);
}

/** For process entry points: the configuration, or every problem printed and exit code 1. */
export function loadConfigOrExit(role: ConfigRole): Config {
  try {
    return loadConfigFromProcess(role);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
