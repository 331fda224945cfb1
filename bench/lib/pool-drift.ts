import { createSql } from '../../db/client';

export interface PoolDrift {
  /** CPU time per query of this process (the client's side): early rounds (after the first) and the last two. */
  firstMicros: number;
  lastMicros: number;
  queries: number;
}

/**
 * Whether a query costs the pool more the longer the process has run (docs/decisions/patched-libraries.md): rounds of short queries,
 * `concurrency` at a time through the product's pool (10 connections), the client's CPU per query in the
 * second and third rounds against the last two. With postgres.js 3.4.9's queue unpatched the last two cost
 * about twice the early ones after 160,000 queries, and more the longer it runs.
 */
export async function measurePoolDrift(databaseUrl: string, rounds = 10, perRound = 20_000, concurrency = 50): Promise<PoolDrift> {
  const sql = createSql(databaseUrl);
  try {
    await sql`select 1`;
    const perQuery: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const before = process.cpuUsage();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let i = 0; i < perRound / concurrency; i++) await sql`select 1`;
        }),
      );
      const used = process.cpuUsage(before);
      perQuery.push((used.user + used.system) / perRound);
    }
    // The first round warms the JIT. Two rounds on each side, as one round moves by ±15% on a busy machine.
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return { firstMicros: mean(perQuery.slice(1, 3)), lastMicros: mean(perQuery.slice(-2)), queries: rounds * perRound };
  } finally {
    await sql.end();
  }
}
