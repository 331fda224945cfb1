import postgres from 'postgres';

/** The most items one statement carries; more in one turn go in further statements. */
const MOST_IN_ONE = 100;

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export interface TurnBatch<T, R> {
  /** One item's statement, as it is made alone. */
  one: (item: T) => Promise<R>;
  /** Many items' statement, doing for each what `one` does; its results in the items' order. */
  many: (items: T[]) => Promise<R[]>;
  /** Items with one key never share a statement (e.g. two rows updating one account). */
  keyOf?: (item: T) => unknown;
  /**
   * An item that comes while none of this batch's statements awaits its reply goes at once, alone: a quiet
   * process does not wait for the end of the turn, and a burst's items still go together behind its first.
   */
  atOnceWhenIdle?: boolean;
}

/**
 * Writes made in the same turn of the event loop, sent together when the turn ends (decision 093; the ask's
 * admission script in Redis too, decision 094): a burst of requests that reach the same step together (admitted
 * by one Redis reply, say) makes one statement instead of as many, each a round trip, a parse and a commit, on
 * the one event loop and in the database. Alone, an item's own
 * statement is sent as before. A statement Postgres refused wrote nothing, so its items are then sent one by one
 * and each fails or succeeds on its own; any other failure (the connection lost) may have come after the commit,
 * so it is each item's failure, never a second try. Process-local: it only groups this process's own writes.
 */
export function turnBatch<T, R>(batch: TurnBatch<T, R>): (item: T) => Promise<R> {
  let turn: Waiting<T, R>[] | null = null;
  let awaitingReply = 0;
  const sent = (statement: Waiting<T, R>[]) => {
    awaitingReply++;
    void send(batch, statement).finally(() => awaitingReply--);
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (batch.atOnceWhenIdle && !turn && awaitingReply === 0) return sent([{ item, resolve, reject }]);
      if (!turn) {
        const sending: Waiting<T, R>[] = [];
        turn = sending;
        setImmediate(() => {
          turn = null;
          for (const statement of statements(sending, batch.keyOf)) sent(statement);
        });
      }
      turn.push({ item, resolve, reject });
    });
}

function statements<T, R>(turn: Waiting<T, R>[], keyOf?: (item: T) => unknown): Waiting<T, R>[][] {
  const out: { keys: Set<unknown>; items: Waiting<T, R>[] }[] = [];
  for (const waiting of turn) {
    const key = keyOf?.(waiting.item);
    let into = out.find((s) => s.items.length < MOST_IN_ONE && (keyOf === undefined || !s.keys.has(key)));
    if (!into) {
      into = { keys: new Set(), items: [] };
      out.push(into);
    }
    into.keys.add(key);
    into.items.push(waiting);
  }
  return out.map((s) => s.items);
}

const alone = <T, R>(batch: TurnBatch<T, R>, w: Waiting<T, R>) => batch.one(w.item).then(w.resolve, w.reject);

async function send<T, R>(batch: TurnBatch<T, R>, waiting: Waiting<T, R>[]): Promise<void> {
  if (waiting.length === 1) return alone(batch, waiting[0]!);
  let results: R[];
  try {
    results = await batch.many(waiting.map((w) => w.item));
  } catch (err) {
    if (!(err instanceof postgres.PostgresError)) {
      for (const w of waiting) w.reject(err);
      return;
    }
    await Promise.all(waiting.map((w) => alone(batch, w)));
    return;
  }
  for (const [i, w] of waiting.entries()) w.resolve(results[i]!);
}
