import type { Sql } from './client';
import { finishSearchRecord, finishSearchRecords, type SearchOutcome } from './searches';
import { turnBatch } from './turn-batch';

type Finish = (finish: { id: number; outcome: SearchOutcome }) => Promise<void>;

const finishers = new WeakMap<Sql, Finish>();

/**
 * `finishSearchRecord` with the searches that end in the same turn of the event loop closed in one statement
 * (turn-batch.ts, decision 093): the answers of a burst end together, and each one's write would otherwise be a
 * statement of its own in front of the other asks' first bytes.
 */
export function finishSearchSoon(sql: Sql, id: number, outcome: SearchOutcome): Promise<void> {
  let finish = finishers.get(sql);
  if (!finish) {
    finish = turnBatch({
      one: (one) => finishSearchRecord(sql, one.id, one.outcome),
      many: async (many) => {
        await finishSearchRecords(sql, many);
        return many.map(() => undefined);
      },
      keyOf: (one) => one.id,
    });
    finishers.set(sql, finish);
  }
  return finish({ id, outcome });
}
