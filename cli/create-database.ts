import { loadConfigFromProcess } from '../core/config';
import { createDatabaseIfMissing } from '../db/create-database';

/** Creates DATABASE_URL's database when missing, so `make dev` works on a fresh Postgres. */
async function main(): Promise<void> {
  const url = loadConfigFromProcess().databaseUrl;
  if (await createDatabaseIfMissing(url)) console.log(`Created database ${decodeURIComponent(new URL(url).pathname.slice(1))}.`);
}

main().catch((err) => {
  console.error(`Could not create the database: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
