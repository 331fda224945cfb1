import postgres from 'postgres';
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

/** A pool that notes each statement it sends, so a test can tell one statement from many. */
export interface NotingPool {
  sql: Sql;
  /** The statements sent so far, oldest first; `sent.length = 0` forgets them. */
  sent: string[];
}

/** A pool of its own on a test database (`url`), noting its statements. */
function notingPool(url: string): NotingPool {
  const sent: string[] = [];
  const sql = postgres(url, {
    max: 10,
    onnotice: () => {},
    debug: (_connection, query) => {
      sent.push(query);
    },
  });
  return { sql, sent };
}

export type NotingTestDatabase = TestDatabase & { noting: NotingPool };

/** A test database (createTestDatabase) with a second pool on it that notes its statements; `drop` ends both. */
export async function createNotingTestDatabase(): Promise<NotingTestDatabase> {
  const db = await createTestDatabase();
  const noting = notingPool(db.url);
  return {
    ...db,
    noting,
    drop: async () => {
      await noting.sql.end({ timeout: 5 });
      await db.drop();
    },
  };
}
