import type { Sql } from './client';

/** The first day of `at`'s month (UTC), the key of gemini_other_costs. */
const monthOf = (at: Date) => `${at.toISOString().slice(0, 7)}-01`;

/** Adds the estimated cost of a Gemini call that is not a search (Describe it) to its month. */
export async function addOtherGeminiCost(sql: Sql, at: Date, usd: number): Promise<void> {
  await sql`
    insert into gemini_other_costs (month, cost_usd) values (${monthOf(at)}, ${usd})
    on conflict (month) do update set cost_usd = gemini_other_costs.cost_usd + excluded.cost_usd`;
}
