import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { migrate } from './migrate';

describe('migrate', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    // Start from nothing: the template is already migrated, so drop what it brought.
    await db.sql.unsafe('drop schema public cascade; create schema public;');
  });
  afterAll(() => db.drop());

  it('applies every migration once, even when two runs race, and nothing the second time', async () => {
    const [a, b] = await Promise.all([migrate(db.sql), migrate(db.sql)]);
    const applied = [...a, ...b].sort();
    expect(applied).toContain('001-initial.sql');
    expect(new Set(applied).size).toBe(applied.length);
    expect(await migrate(db.sql)).toEqual([]);
    const tables = await db.sql<{ table_name: string }[]>`
      select table_name from information_schema.tables where table_schema = 'public' order by 1`;
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['users', 'sessions', 'accounts', 'timers', 'timer_runs', 'stripe_events', 'schema_migrations']),
    );
  });
});
