import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sql } from './client';

/** Default location of the forward-only migration files, relative to the repository root. */
export const MIGRATIONS_DIR = path.resolve(process.cwd(), 'db/migrations');

// An arbitrary constant shared by every migrator, so two concurrent runs serialize instead of both applying.
const MIGRATION_LOCK_ID = 7_241_993_001;

/** Applies every pending `NNN-name.sql` in order, each in its own transaction; returns the names applied. */
export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^\d+-[\w-]+\.sql$/.test(f)).sort();
  const conn = await sql.reserve();
  const applied: string[] = [];
  try {
    await conn`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await conn`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`;
    const done = new Set((await conn<{ name: string }[]>`select name from schema_migrations`).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const text = await readFile(path.join(dir, file), 'utf8');
      await conn.unsafe('begin');
      try {
        await conn.unsafe(text);
        await conn`insert into schema_migrations (name) values (${file})`;
        await conn.unsafe('commit');
      } catch (err) {
        await conn.unsafe('rollback');
        throw new Error(`Migration ${file} failed: ${(err as Error).message}`);
      }
      applied.push(file);
    }
  } finally {
    await conn`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.catch(() => {});
    conn.release();
  }
  return applied;
}
