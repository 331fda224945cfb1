import type { GoogleGenAI } from '@google/genai';
import type { Queue } from 'bullmq';
import type { RedisClient } from '../core/redis/client';
import type Stripe from 'stripe';
import type { Config } from '../core/config';
import type { Mailer } from '../core/delivery/mailer';
import type { SessionRevocations } from '../core/auth/session-revocation';
import type { ApiTokenScope } from '../core/contract/api-tokens';
import type { ResolvedAddress } from '../core/website/fetch';
import type { RunTimerJob, SearchEventsJob } from '../core/jobs';
import type { Logger } from '../core/logger';
import type { Sql } from '../db/client';
import type { SessionUser } from '../db/sessions';

/** Everything the app needs from the outside; main.ts builds it, tests build their own. */
export interface AppDeps {
  config: Config;
  sql: Sql;
  /** Shared Redis for rate limits and per-user concurrency (state shared by every api process). */
  redis: RedisClient;
  timersQueue: Queue<RunTimerJob>;
  /** Sessions ended anywhere, heard by every api process through Redis (docs/decisions/sign-in-and-sessions.md). */
  sessionRevocations: SessionRevocations;
  /** Where an answered ask's events are queued once its reply has ended (the worker finds them). */
  searchEventsQueue: Queue<SearchEventsJob>;
  stripe: Stripe;
  /**
   * The one SMTP mailer of the process (test sends, account deletion's notice), closed with the other clients on
   * shutdown; null when email is off (SMTP_URL not set).
   */
  mailer: Mailer | null;
  gemini: GoogleGenAI;
  logger: Logger;
  /** Directory holding manifest.json and assets/ (dist/public). */
  publicDir: string;
  /** The start's opening of the pools (api/warm-up.ts); absent: they are taken as open (tests open on demand). */
  warmUp?: { ready(): boolean };
  /** Host name resolver for the website guard; the system resolver when absent (tests inject one). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /**
     * The signed-in user: from the session cookie on the page's routes, from the bearer token on /v1 and /mcp
     * (never both); null when signed out.
     */
    user: SessionUser | null;
    /** What the bearer token of a /v1 or /mcp request may do; unset on the page's routes. */
    tokenScopes?: readonly ApiTokenScope[];
  };
}
