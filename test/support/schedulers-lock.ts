import type { Sql } from '../../db/client';
import { lockSchedulersExclusive } from '../../db/timers';
import { until } from '../../dev/harness/wait';

/** Advisory locks of this database that transactions hold (`granted`) or wait for. */
export async function advisoryLocks(sql: Sql, granted: boolean): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_locks
    where locktype = 'advisory' and granted = ${granted}
      and database = (select oid from pg_database where datname = current_database())`;
  return row!.n;
}

/**
 * Holds the exclusive schedulers lock, as a reconcile pass fixing a page does, and returns once it is held (the
 * only advisory lock granted in this database); the function it returns releases it.
 */
export async function holdSchedulersLock(sql: Sql): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const holder = sql.begin(async (tx) => {
    await lockSchedulersExclusive(tx);
    await held;
  });
  await until('the lock held', async () => (await advisoryLocks(sql, true)) === 1);
  return async () => {
    release();
    await holder;
  };
}
