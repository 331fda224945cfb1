import type { Logger } from '../core/logger';
import { openPool, type Sql } from '../db/client';

/** How long a failed opening of the pool waits before it tries again (Postgres restarting, a deploy's order). */
const RETRY_MS = 1_000;

export interface WarmUp {
  /** True once the pools are open: /readyz answers ready only then. */
  ready(): boolean;
  /** Settles once they are (tried again until then; never rejects). */
  done: Promise<void>;
}

/**
 * Opens the api's Postgres pool at start, every connection checked, so the first burst of asks after a start
 * pays for no connection (docs/decisions/ask.md); Postgres is tried again until it answers. A single api process listens
 * meanwhile, and its /readyz says it is still starting; one of several listens only once this is done
 * (api/main.ts).
 */
export function warmUp(sql: Sql, poolSize: number, logger: Logger): WarmUp {
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
  const done = postgres.then(() => {
    open = true;
  });
  return { ready: () => open, done };
}
