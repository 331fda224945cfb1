import { Hono } from 'hono';
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

/** Liveness (the process runs) and readiness (its Postgres and Redis answer). */
export function healthRoutes({ sql, redis }: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    const failures = (await Promise.all([check('postgres', () => sql`select 1`), check('redis', () => redis.ping())])).filter(
      (f): f is string => f !== null,
    );
    if (failures.length) {
      const names = failures.map((f) => f.slice(0, f.indexOf(':')));
      return c.json(
        {
          status: 'unavailable',
          failed: failures,
          error: `Not ready: ${names.join(' and ')} cannot be reached. Requests that need ${names.length > 1 ? 'them' : 'it'} answer 503 until ${names.length > 1 ? 'they are' : 'it is'} back.`,
        },
        503,
      );
    }
    return c.json({ status: 'ready' });
  });
  return app;
}
