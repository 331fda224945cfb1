-- What each search's Gemini calls used and cost (the answer and the event extraction together): tokens as
-- Google bills them, the Google Search queries the model ran, and the estimate at the configured prices.
-- prompt_tokens and output_tokens become these totals. Adding columns with constant defaults rewrites nothing.
alter table searches
  add column gemini_calls integer not null default 0,
  add column thinking_tokens integer not null default 0,
  add column grounding_queries integer not null default 0,
  add column cost_usd numeric(12, 6) not null default 0;

-- Google's Search Suggestions (HTML) of a grounded answer, which Google's terms require to be shown with it.
alter table searches add column search_suggestions text;

-- The spend guard sums this month's costs once a minute per worker. A BRIN index fits an append-ordered
-- timestamp: a few pages for millions of rows, built without a long hold on writes.
create index searches_started_brin on searches using brin (started_at);
