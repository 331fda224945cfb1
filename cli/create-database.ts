import { loadConfigFromProcess } from '../core/config';
import { createSql } from '../db/client';

/** Creates DATABASE_URL's database when missing, so `make dev` works on a fresh Postgres. */
async function main(): Promise<void> {
  const target = new URL(loadConfigFromProcess().databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(target);
  admin.pathname = '/postgres';
  const sql = createSql(admin.toString(), { max: 1 });
  try {
    const [exists] = await sql`select 1 from pg_database where datname = ${name}`;
    if (!exists) {
      await sql.unsafe(`create database "${name.replace(/"/g, '""')}"`);
      console.log(`Created database ${name}.`);
    }
  } finally {
    await sql.end();
  }
}

main().catch((err) => {
  console.error(`Could not create the database: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
