import { randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Who made a test database: this checkout of this user on this machine. Written on every database the tests
 * create (COMMENT ON DATABASE) and checked before a stale one is dropped, so a run on a shared Postgres server
 * never drops another person's, another checkout's, or anything it did not make, whatever its name.
 */
export function testDatabaseOwner(root = ROOT): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No user name for this uid (some containers): the host and the checkout still tell runs apart.
  }
  return `eventfinder tests of ${user}@${hostname()}:${root}`;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Creates a database (a copy of `template` when given) marked as this checkout's own (testDatabaseOwner). */
export async function createOwnedDatabase(admin: Sql, name: string, template?: string): Promise<void> {
  await admin.unsafe(`create database ${quoteIdent(name)}${template ? ` template ${quoteIdent(template)}` : ''}`);
  await admin.unsafe(`comment on database ${quoteIdent(name)} is ${quoteLiteral(testDatabaseOwner())}`);
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
  await withAdmin((admin) => createOwnedDatabase(admin, name));
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

/**
 * Drops the test databases a killed run of this checkout left behind: only names with the test prefix, older
 * than any run, and marked as this checkout's own (testDatabaseOwner). Anything else is someone else's, or
 * not provably ours, and stays.
 */
export async function dropStaleTestDatabases(owner = testDatabaseOwner()): Promise<string[]> {
  return withAdmin(async (admin) => {
    const all = await admin<{ datname: string; owner: string | null }[]>`
      select datname, shobj_description(oid, 'pg_database') as owner from pg_database
      where datname like 'eventfinder\_test\_%'`;
    const cutoff = Date.now() / 1000 - STALE_AFTER_S;
    const stale = all.filter((db) => {
      const created = /^eventfinder_test_(\d+)_[0-9a-f]+$/.exec(db.datname);
      return created !== null && Number(created[1]) < cutoff && db.owner === owner;
    });
    for (const { datname } of stale) await dropDatabase(datname);
    return stale.map((db) => db.datname);
  });
}
