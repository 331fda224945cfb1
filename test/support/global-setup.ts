import { buildWeb } from '../../web/build';
import { createTemplateDatabase, dropDatabase, dropStaleTestDatabases } from '../../dev/harness/pg';

/**
 * Builds a migrated template database once per run (each test file clones it, so files run in parallel
 * without sharing rows) and the browser assets the page tests load.
 */
export default async function setup(): Promise<() => Promise<void>> {
  await dropStaleTestDatabases();
  const template = await createTemplateDatabase();
  await buildWeb({ outdir: 'dist/public', watch: false, quiet: true, clean: false });
  return () => dropDatabase(template);
}
