import { afterAll, describe, expect, it } from 'vitest';
import { createOwnedDatabase, dropDatabase, dropStaleTestDatabases, testDatabaseOwner, withAdmin } from '../dev/harness/pg';

/** Whether a database exists on the server. */
const exists = (name: string) => withAdmin(async (admin) => (await admin`select 1 from pg_database where datname = ${name}`).count === 1);

describe('make test on a shared Postgres server', () => {
  // Names from a day ago: stale by age, so only the owner mark decides.
  const old = Math.floor(Date.now() / 1000) - 24 * 60 * 60;
  const suffix = Math.random().toString(16).slice(2, 10).padEnd(8, '0');
  const ours = `eventfinder_test_${old}_${suffix}`;
  const unmarked = `eventfinder_test_${old}_${suffix.split('').reverse().join('')}`;
  const theirs = `eventfinder_test_${old}_${suffix.replace(/^./, (c) => (c === 'f' ? 'e' : 'f'))}`;
  const oddName = `eventfinder_test_someone_${suffix}`;

  afterAll(async () => {
    for (const name of [ours, unmarked, theirs, oddName]) await dropDatabase(name);
  });

  it('drops only stale test databases this checkout marked as its own, never another person’s', async () => {
    await withAdmin(async (admin) => {
      await createOwnedDatabase(admin, ours);
      // Another checkout's, or another user's: the same prefix, another mark.
      await admin.unsafe(`create database "${theirs}"`);
      await admin.unsafe(`comment on database "${theirs}" is 'eventfinder tests of someone@elsewhere:/home/someone/eventfinder'`);
      // No mark at all (made by hand, or by an older version of the tests): not provably ours.
      await admin.unsafe(`create database "${unmarked}"`);
      await admin.unsafe(`create database "${oddName}"`);
    });
    expect(testDatabaseOwner()).toMatch(/^eventfinder tests of .+@.+:\//);

    const dropped = await dropStaleTestDatabases();

    expect(dropped).toContain(ours);
    expect(dropped).not.toContain(theirs);
    expect(await exists(ours)).toBe(false);
    expect(await exists(theirs)).toBe(true);
    expect(await exists(unmarked)).toBe(true);
    expect(await exists(oddName)).toBe(true);
  });
});
