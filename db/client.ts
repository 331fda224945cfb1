import postgres from 'postgres';

export type Sql = postgres.Sql<{}>;

/** A transaction: functions taking one hold its locks until it ends, so they never take a pool. */
export type Tx = postgres.TransactionSql<{}>;

/** Runs queries: the pool, or a transaction when the caller needs the queries inside one. */
export type Db = Sql | Tx;

export const DEFAULT_POOL_SIZE = 10;

/**
 * The one Postgres pool of a process. `keepOpen`: idle connections are never closed (the api, which opens its
 * whole pool at start with openPool so that no request pays for a connection); otherwise after 30 s idle.
 */
export function createSql(url: string, options: { max?: number; keepOpen?: boolean } = {}): Sql {
  return postgres(url, {
    max: options.max ?? DEFAULT_POOL_SIZE,
    idle_timeout: options.keepOpen ? 0 : 30,
    connect_timeout: 10,
    // Notices such as "relation already exists, skipping" are expected during migrations.
    onnotice: () => {},
    transform: { undefined: null },
  });
}

/**
 * Opens every connection of the pool now, each checked with a query: postgres.js opens them lazily, one per
 * query that finds the others busy, so the first burst of requests after a start would pay for the connections,
 * their authentication and their type lookups. Throws when Postgres cannot be reached.
 */
export async function openPool(sql: Sql, size: number): Promise<void> {
  const reserved = await Promise.all(Array.from({ length: size }, () => sql.reserve()));
  try {
    await Promise.all(reserved.map((connection) => connection`select 1`));
  } finally {
    for (const connection of reserved) connection.release();
  }
}
