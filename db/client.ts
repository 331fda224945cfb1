import postgres from 'postgres';

export type Sql = postgres.Sql<{}>;

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
