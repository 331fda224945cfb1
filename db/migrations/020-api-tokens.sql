-- Personal API tokens (decision 045): only a SHA-256 of each token is stored, like session tokens; the
-- token itself is shown once. `hint` is the token's first characters, so the page can tell two tokens apart.
create table api_tokens (
  id bigint generated always as identity primary key,
  user_id bigint not null references users (id) on delete cascade,
  name text not null,
  token_hash text not null unique,
  hint text not null,
  scopes text[] not null check (scopes <@ array['read', 'search', 'timers'] and cardinality(scopes) > 0),
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index api_tokens_user_idx on api_tokens (user_id);

-- A cursor over a timer's recorded events, so an API client polls only what is new. Rows of one timer are
-- inserted under its `timer-events` advisory lock (db/events.ts), which is held until commit: per timer, a
-- later commit always has the larger number, and a client that read up to N never misses a row below it.
alter table timer_run_events add column seq bigint generated always as identity;
create index timer_run_events_seq_idx on timer_run_events (run_id, seq);
