-- Gemini calls that are not a search (Describe it's reading of a sentence, decision 044) add their estimated
-- cost here, per UTC month, so the monthly spend guard (GEMINI_MONTHLY_BUDGET_USD) sees every call.
create table gemini_other_costs (
  month date primary key,
  cost_usd numeric(12, 6) not null default 0
);
