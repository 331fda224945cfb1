import type { GoogleGenAI } from '@google/genai';
import { openGeminiConnections } from '../core/gemini/connections';
import type { Logger } from '../core/logger';
import { openPool, type Sql } from '../db/client';

/** How long a failed opening of the pool waits before it tries again (Postgres restarting, a deploy's order). */
const RETRY_MS = 1_000;
/** The opening of Gemini's connections is given this long; a Gemini that does not answer does not hold readiness. */
const GEMINI_OPEN_TIMEOUT_MS = 5_000;

export interface WarmUp {
  /** True once the pools are open: /readyz answers ready only then. */
  ready(): boolean;
  /** Settles once they are (tried again until then; never rejects). */
  done: Promise<void>;
}

/** Connections to Gemini to open at start: the process's client, the model it asks, and how many. */
export interface GeminiWarmUp {
  client: GoogleGenAI;
  model: string;
  connections: number;
}

/**
 * Opens the api's Postgres pool at start, every connection checked, and `gemini.connections` kept-alive
 * connections to Gemini, so the first burst of asks after a start pays for no connection (decisions 068, 077);
 * Postgres is tried again until it answers, Gemini once (its trouble is the start-up check's to report, and is no
 * reason to refuse the sign-in, billing and timer requests). A single api process listens meanwhile, and its
 * /readyz says it is still starting; one of several listens only once this is done (api/main.ts).
 */
export function warmUp(sql: Sql, poolSize: number, logger: Logger, gemini?: GeminiWarmUp): WarmUp {
  let open = false;
  const postgres = (async () => {
    for (;;) {
      try {
        const started = performance.now();
        // One query first: while Postgres cannot be reached it fails at once, where the pool's reservations
        // would stay queued ahead of every request's query.
        await sql`select 1`;
        await openPool(sql, poolSize);
        logger.info({ connections: poolSize, ms: Math.round(performance.now() - started) }, 'postgres pool open');
        return;
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'could not open the postgres pool yet; trying again');
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  })();
  const geminiOpen = gemini
    ? (async () => {
        const started = performance.now();
        const opened = await openGeminiConnections(gemini.client, gemini.model, gemini.connections, GEMINI_OPEN_TIMEOUT_MS);
        const ms = Math.round(performance.now() - started);
        if (opened === gemini.connections) logger.info({ connections: opened, ms }, 'gemini connections open');
        else
          logger.warn(
            { connections: opened, wanted: gemini.connections, ms },
            'could not open every connection to gemini at start; asks open them as needed',
          );
      })()
    : Promise.resolve();
  const done = Promise.all([postgres, geminiOpen]).then(() => {
    open = true;
  });
  return { ready: () => open, done };
}
