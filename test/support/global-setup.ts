import { buildWeb } from '../../web/build';
import { createTemplateDatabase, dropDatabase, dropStaleTestDatabases } from '../../dev/harness/pg';

/**
 * Builds a migrated template database once per run (each test file clones it, so files run in parallel
 * without sharing rows), the browser assets the page tests load, and the server and stand-in bundles that
 * test/dist.test.ts and test/image.test.ts start (what `make build` writes to dist/). The stack project's setup
 * only (vitest.config.ts): the unit tests need neither, and this is the one build of a `make test` or CI run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  await dropStaleTestDatabases();
  const template = await createTemplateDatabase();
  await buildWeb({ outdir: 'dist/public', watch: false, quiet: true, clean: false, server: true });
  return () => dropDatabase(template);
}
