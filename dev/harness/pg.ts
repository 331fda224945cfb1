import { randomBytes } from 'node:crypto';
import { createSql, type Sql } from '../../db/client';
import { loadConfig } from '../../core/config';
import { migrate } from '../../db/migrate';

/** The server's maintenance database URL, derived from DATABASE_URL (tests create their own databases). */
export function adminUrl(database = 'postgres'): string {
  const url = new URL(loadConfig(process.env).databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Test database names carry their creation time, so a run only drops what an earlier, killed run left
 * behind and never the databases of a run going on beside it.
 */
export function testDatabaseName(): string {
  return `eventfinder_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
}

/** This run's template, named by global setup and inherited by the test workers through the environment. */
export function templateDatabase(): string {
  const name = process.env.EVENTFINDER_TEST_TEMPLATE;
  if (!name) throw new Error('No template database: run the tests through vitest (test/support/global-setup.ts).');
  return name;
}

export async function withAdmin<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
  const sql = createSql(adminUrl(), { max: 1 });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

/** Creates and migrates the template database that test and benchmark databases are cloned from. */
export async function createTemplateDatabase(): Promise<string> {
  const name = testDatabaseName();
  await withAdmin((admin) => admin.unsafe(`create database "${name}"`));
  process.env.EVENTFINDER_TEST_TEMPLATE = name;
  const sql = createSql(adminUrl(name), { max: 1 });
  try {
    await migrate(sql);
  } finally {
    await sql.end();
  }
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((admin) => admin.unsafe(`drop database if exists "${name}" with (force)`));
}

const STALE_AFTER_S = 3 * 60 * 60;

/** Drops test databases older than any test run, left by a run that was killed before it cleaned up. */
export async function dropStaleTestDatabases(): Promise<void> {
  await withAdmin(async (admin) => {
    const all = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like 'eventfinder\_test\_%'`;
    const cutoff = Date.now() / 1000 - STALE_AFTER_S;
    const stale = all.filter(({ datname }) => Number(datname.split('_')[2]) < cutoff || !/^eventfinder_test_\d+_/.test(datname));
    for (const { datname } of stale) {
      await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    }
  });
}
