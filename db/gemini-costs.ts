import type { Sql } from './client';

/** The first day of `at`'s month (UTC), the key of gemini_other_costs. */
const monthOf = (at: Date) => `${at.toISOString().slice(0, 7)}-01`;

/**
 * Adds the estimated cost of a Gemini call that is not a search (Describe it) to its month: a budget line of its
 * own, outside the searches' spend that GEMINI_MONTHLY_BUDGET_USD holds timer runs to.
 */
export async function addOtherGeminiCost(sql: Sql, at: Date, usd: number): Promise<void> {
  await sql`
    insert into gemini_other_costs (month, cost_usd) values (${monthOf(at)}, ${usd})
    on conflict (month) do update set cost_usd = gemini_other_costs.cost_usd + excluded.cost_usd`;
}

/** The estimated USD of the month's Gemini calls that are not searches (the month of `at`, UTC). */
export async function monthOtherGeminiCostUsd(sql: Sql, at: Date): Promise<number> {
  const [row] = await sql<{ usd: string }[]>`select coalesce(sum(cost_usd), 0) as usd from gemini_other_costs where month = ${monthOf(at)}`;
  return Number(row!.usd);
}
