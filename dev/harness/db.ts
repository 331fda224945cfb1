import { createSql, type Sql } from '../../db/client';
import { adminUrl, createOwnedDatabase, dropDatabase, templateDatabase, testDatabaseName, withAdmin } from './pg';

export interface TestDatabase {
  sql: Sql;
  url: string;
  drop: () => Promise<void>;
}

/** A fresh, migrated database of this test file's own, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = testDatabaseName();
  await withAdmin(async (admin) => {
    // Postgres refuses to copy a template while another CREATE DATABASE is copying it; wait a moment.
    for (let attempt = 0; ; attempt++) {
      try {
        await createOwnedDatabase(admin, name, templateDatabase());
        return;
      } catch (err) {
        if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  const url = adminUrl(name);
  const sql = createSql(url, { max: 20 });
  return {
    sql,
    url,
    drop: async () => {
      await sql.end({ timeout: 5 });
      await dropDatabase(name);
    },
  };
}
