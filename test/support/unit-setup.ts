import path from 'node:path';
import { startLocalServices } from '../../dev/services/local-services';

/**
 * The unit project's setup (vitest.config.ts): no Postgres and no build, but Redis for the unit tests that use
 * it: REDIS_URL when set, else the server at the default address, else one of this checkout's own
 * (dev/services, `.dev-state/unit-redis`), stopped after the run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const services = await startLocalServices({ env: process.env, stateDir: path.resolve('.dev-state'), purpose: 'unit', redisOnly: true });
  Object.assign(process.env, services.env);
  return () => services.stop();
}
