-- Postgres is the source of truth; Redis only holds what can be rebuilt from these tables.

create table users (
  id bigint generated always as identity primary key,
  google_sub text not null unique,
  email text not null,
  name text not null default '',
  picture text not null default '',
  created_at timestamptz not null default now(),
  last_login_at timestamptz not null default now()
);

-- Only a SHA-256 of the session token is stored, so a leaked table cannot be replayed as cookies.
create table sessions (
  token_hash text primary key,
  user_id bigint not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_user_id_idx on sessions (user_id);
create index sessions_expires_at_idx on sessions (expires_at);

-- Credits are derived: the plan's allowance minus searches_used in the current period, never below 0.
create table accounts (
  user_id bigint primary key references users (id) on delete cascade,
  tier text not null default 'free' check (tier in ('free', 'plus', 'pro')),
  status text not null default 'active',
  searches_used integer not null default 0 check (searches_used >= 0),
  period_start timestamptz not null default now(),
  period_end timestamptz not null default (now() + interval '1 month'),
  stripe_customer_id text unique,
  stripe_subscription_id text unique,
  -- Creation time of the newest Stripe event applied, so an older payload never overwrites a newer state.
  stripe_synced_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table timers (
  id bigint generated always as identity primary key,
  user_id bigint not null references users (id) on delete cascade,
  schedule_type text not null check (schedule_type in ('daily', 'weekly')),
  time text not null check (time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  weekday text check (weekday in ('Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday')),
  question text not null,
  website text not null default '',
  timezone text not null,
  created_at timestamptz not null default now(),
  deleted_at timestamptz,
  check (schedule_type = 'daily' or weekday is not null)
);
create index timers_user_active_idx on timers (user_id) where deleted_at is null;

-- One row per scheduled fire: the unique key makes retried or redelivered jobs land on the same run.
create table timer_runs (
  id bigint generated always as identity primary key,
  timer_id bigint not null references timers (id) on delete cascade,
  scheduled_for timestamptz not null,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  status text not null check (status in ('running', 'succeeded', 'failed', 'skipped')),
  credit_taken boolean not null default false,
  answer text,
  error text,
  unique (timer_id, scheduled_for)
);
create index timer_runs_timer_latest_idx on timer_runs (timer_id, scheduled_for desc);

-- Every search, interactive or from a timer, for support and usage accounting.
create table searches (
  id bigint generated always as identity primary key,
  user_id bigint not null references users (id) on delete cascade,
  timer_run_id bigint references timer_runs (id) on delete set null,
  question text not null,
  website text not null default '',
  status text not null check (status in ('running', 'answered', 'failed', 'refused')),
  error text,
  answer_chars integer not null default 0,
  model text not null default '',
  prompt_tokens integer,
  output_tokens integer,
  started_at timestamptz not null default now(),
  first_chunk_at timestamptz,
  finished_at timestamptz
);
create index searches_user_started_idx on searches (user_id, started_at desc);

-- Stripe event ids, recorded in the same transaction as their effect so a redelivery changes nothing.
create table stripe_events (
  id text primary key,
  type text not null,
  created_at timestamptz not null,
  received_at timestamptz not null default now()
);
