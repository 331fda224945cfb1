-- The daily retention pass (decision 039) picks old rows through these, a batch at a time.
create index if not exists searches_started_idx on searches (started_at);
create index if not exists timer_runs_scheduled_idx on timer_runs (scheduled_for);
create index if not exists timer_events_last_seen_idx on timer_events (last_seen_at);
