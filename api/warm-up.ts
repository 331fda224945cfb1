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
 * pays for no connection (decision 068); tried again until Postgres answers. The api listens meanwhile, and its
 * /readyz says it is still starting.
 */
export function warmUp(sql: Sql, poolSize: number, logger: Logger): WarmUp {
  let open = false;
  const done = (async () => {
    for (;;) {
      try {
        const started = performance.now();
        await openPool(sql, poolSize);
        open = true;
        logger.info({ connections: poolSize, ms: Math.round(performance.now() - started) }, 'postgres pool open');
        return;
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'could not open the postgres pool yet; trying again');
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  })();
  return { ready: () => open, done };
}
