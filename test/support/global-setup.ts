import path from 'node:path';
import { buildWeb } from '../../web/build';
import { createTemplateDatabase, dropDatabase, dropStaleTestDatabases } from '../../dev/harness/pg';
import { startLocalServices } from '../../dev/services/local-services';

/**
 * Postgres and Redis first: DATABASE_URL and REDIS_URL when set, else the servers at the default addresses,
 * else ones of this checkout's own (dev/services), which the test files inherit through the environment and
 * which stop after the run. Then a migrated template database once per run (each test file clones it, so files
 * run in parallel without sharing rows), the browser assets the page tests load, and the server and stand-in
 * bundles that test/dist.test.ts and test/image.test.ts start (what `make build` writes to dist/). The stack
 * project's setup (vitest.config.ts): this is the one build of a `make test` or CI run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const services = await startLocalServices({ env: process.env, stateDir: path.resolve('.dev-state'), purpose: 'test' });
  Object.assign(process.env, services.env);
  try {
    await dropStaleTestDatabases();
    const template = await createTemplateDatabase();
    await buildWeb({ outdir: 'dist/public', watch: false, quiet: true, clean: false, server: true });
    return async () => {
      await dropDatabase(template);
      await services.stop();
    };
  } catch (err) {
    await services.stop();
    throw err;
  }
}
