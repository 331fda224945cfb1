import { createSql } from './client';

/** Creates the database `databaseUrl` names when it is missing (through the server's `postgres` database); true when it did. */
export async function createDatabaseIfMissing(databaseUrl: string): Promise<boolean> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(target);
  admin.pathname = '/postgres';
  const sql = createSql(admin.toString(), { max: 1 });
  try {
    const [exists] = await sql`select 1 from pg_database where datname = ${name}`;
    if (exists) return false;
    await sql.unsafe(`create database "${name.replace(/"/g, '""')}"`);
    return true;
  } finally {
    await sql.end();
  }
}
