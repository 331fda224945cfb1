import type { Sql } from '../../db/client';
import { monthSpendUsd } from '../../db/searches';
import type { Logger } from '../logger';
import { setMonthSpend } from '../metrics';

// The month's spend is read from Postgres (the searches' recorded costs) at most this often per process: the
// guard stops timer runs within a minute of the budget being reached, at one indexed sum a minute.
const RECHECK_MS = 60_000;

export interface SpendGuard {
  /** False once this month's estimated Gemini spend has reached GEMINI_MONTHLY_BUDGET_USD. */
  timerRunsAllowed(): Promise<boolean>;
}

/**
 * Stops timer runs (never asks, which a person is waiting for) when the deployment's estimated Gemini spend
 * this month (UTC) reaches its budget, before the Gemini project's own spending cap refuses every call. Set the
 * budget below that cap. The operator is told by an error log line when the guard engages and by the
 * `gemini_month_spend_usd` and `gemini_spend_guard_engaged` metrics.
 */
export function createSpendGuard(deps: { sql: Sql; logger: Logger; budgetUsd: number | null }): SpendGuard {
  let checked: { at: number; allowed: boolean } | null = null;
  let engagedMonth: string | null = null;
  return {
    async timerRunsAllowed() {
      if (deps.budgetUsd === null) return true;
      const now = Date.now();
      if (checked && now - checked.at < RECHECK_MS) return checked.allowed;
      const month = new Date(now).toISOString().slice(0, 7);
      const spent = await monthSpendUsd(deps.sql, new Date(`${month}-01T00:00:00Z`));
      const allowed = spent < deps.budgetUsd;
      setMonthSpend(spent, !allowed);
      if (!allowed && engagedMonth !== month) {
        engagedMonth = month;
        deps.logger.error(
          { spentUsd: spent, budgetUsd: deps.budgetUsd, month },
          'Gemini spend reached GEMINI_MONTHLY_BUDGET_USD: timer runs are skipped until next month (asks go on). Raise the budget to resume them.',
        );
      }
      checked = { at: now, allowed };
      return allowed;
    },
  };
}
