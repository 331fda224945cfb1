import postgres from 'postgres';

export type Sql = postgres.Sql<{}>;

/** A transaction: functions taking one hold its locks until it ends, so they never take a pool. */
export type Tx = postgres.TransactionSql<{}>;

/** Runs queries: the pool, or a transaction when the caller needs the queries inside one. */
export type Db = Sql | Tx;

/** The one Postgres pool of a process. */
export function createSql(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    connect_timeout: 10,
    // Notices such as "relation already exists, skipping" are expected during migrations.
    onnotice: () => {},
    transform: { undefined: null },
  });
}
