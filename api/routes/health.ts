import { Hono } from 'hono';
import { modelHealth } from '../../core/gemini/model';
import type { AppDeps, AppEnv } from '../deps';

const CHECK_TIMEOUT_MS = 2000;

async function check(name: string, probe: () => Promise<unknown>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return null;
  } catch (err) {
    return `${name}: ${(err as Error).message || 'unreachable'}`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness (the process runs) and readiness (its Postgres and Redis answer). A Gemini model that cannot be used
 * is reported as a warning, not as unready: every api process shares the configuration, so taking them out of
 * the load balancer would stop sign-in, billing and timers too, without making searches work
 * (docs/decisions/gemini-and-cost.md).
 */
export function healthRoutes({ sql, redis, gemini, warmUp }: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    // Asked while starting too, so a probe learns which service is missing rather than only that it is starting.
    const failures = (await Promise.all([check('postgres', () => sql`select 1`), check('redis', () => redis.ping())])).filter(
      (f): f is string => f !== null,
    );
    const model = modelHealth(gemini);
    const warnings = model.state === 'unusable' ? [`gemini: ${model.problem}`] : [];
    if (failures.length === 0 && warmUp && !warmUp.ready()) {
      const error = 'Not ready: the api is still opening its connections to Postgres and Gemini. It is ready once they are open.';
      return c.json({ status: 'starting', failed: ['connections not open yet'], error, gemini: model, warnings: [] }, 503);
    }
    if (failures.length) {
      const names = failures.map((f) => f.slice(0, f.indexOf(':')));
      return c.json(
        {
          status: 'unavailable',
          failed: failures,
          error: `Not ready: ${names.join(' and ')} cannot be reached. Requests that need ${names.length > 1 ? 'them' : 'it'} answer 503 until ${names.length > 1 ? 'they are' : 'it is'} back.`,
          gemini: model,
          warnings,
        },
        503,
      );
    }
    return c.json({ status: 'ready', gemini: model, warnings });
  });
  return app;
}
