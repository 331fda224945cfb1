-- Delivery: per-timer channels, pause state and the record of every message sent (or about to be).

-- paused_at set means no scheduler in Redis (reconcile skips the timer); paused_reason says why, for the page.
-- failures_since: runs before it do not count towards consecutive_failures (set on resume).
alter table timers
  add column paused_at timestamptz,
  add column paused_reason text,
  add column email_enabled boolean not null default true,
  add column webhook_url text,
  add column consecutive_failures integer not null default 0,
  add column failures_since timestamptz;

-- One row per message, written before it is sent: the unique keys make a repeated after-run call or a retried
-- job land on the same row, and the status guard lets only one execution send it.
create table deliveries (
  id bigint generated always as identity primary key,
  timer_id bigint not null references timers (id) on delete cascade,
  run_id bigint not null references timer_runs (id) on delete cascade,
  user_id bigint not null references users (id) on delete cascade,
  channel text not null check (channel in ('email', 'webhook')),
  kind text not null check (kind in ('digest', 'paused', 'out-of-searches')),
  -- The allowance period an out-of-searches notice speaks for (accounts.usage_epoch): one notice per period.
  usage_epoch integer,
  -- What the message says, fixed when it is recorded, so every attempt sends the same content.
  events jsonb not null default '[]',
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'skipped')),
  attempts integer not null default 0,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sent_at timestamptz,
  unique (run_id, channel, kind)
);
create unique index deliveries_out_of_searches_once on deliveries (user_id, channel, usage_epoch)
  where kind = 'out-of-searches';
create index deliveries_timer_latest_idx on deliveries (timer_id, channel, created_at desc);
create index deliveries_pending_idx on deliveries (created_at) where status = 'pending';

-- Unsubscribe links: one random token per message, only its SHA-256 stored (like sessions).
create table unsubscribe_tokens (
  token_hash text primary key,
  timer_id bigint not null references timers (id) on delete cascade,
  created_at timestamptz not null default now()
);
create index unsubscribe_tokens_timer_idx on unsubscribe_tokens (timer_id);
