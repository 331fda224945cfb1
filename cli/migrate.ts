import { loadConfigFromProcess } from '../core/config';
import { createSql } from '../db/client';
import { migrate } from '../db/migrate';

/** `make migrate` and the image's one-shot migrate service (dist/server/migrate.js): applies pending migrations. */
async function main(): Promise<void> {
  const config = loadConfigFromProcess();
  const sql = createSql(config.databaseUrl, { max: 1 });
  try {
    const applied = await migrate(sql);
    console.log(applied.length ? `Applied ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await sql.end();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
