-- Chat and push channels of a timer beside email and its webhook: any number of Slack, Discord, Teams and ntfy
-- addresses. The address (and ntfy's access token) is a secret: only shown masked, never in feeds or exports.
-- A channel whose service said it is gone (Slack channel_not_found, Discord Unknown Webhook, 404/410) is kept,
-- stopped, with the sentence that says why: shown on the timer until removed, and once in the next digest email
-- (notice_mailed false until then).
create table timer_channels (
  id bigint generated always as identity primary key,
  timer_id bigint not null references timers (id) on delete cascade,
  kind text not null check (kind in ('slack', 'discord', 'teams', 'ntfy')),
  url text not null,
  token text,
  created_at timestamptz not null default now(),
  stopped_at timestamptz,
  stopped_notice text,
  notice_mailed boolean not null default true,
  unique (timer_id, kind, url)
);

-- A channel's message is a delivery like an email or a webhook call: `channel` names the service, `channel_id` the
-- timer's channel (null once it was removed: the message still queued is then skipped). One message per run,
-- channel and kind; the out-of-searches notice once per channel and allowance period.
alter table deliveries drop constraint deliveries_channel_check;
alter table deliveries add constraint deliveries_channel_check
  check (channel in ('email', 'webhook', 'slack', 'discord', 'teams', 'ntfy'));
alter table deliveries add column channel_id bigint references timer_channels (id) on delete set null;
alter table deliveries drop constraint deliveries_run_id_channel_kind_key;
create unique index deliveries_once on deliveries (run_id, channel, kind) where channel in ('email', 'webhook');
create unique index deliveries_channel_once on deliveries (run_id, channel_id, kind) where channel_id is not null;
create unique index deliveries_out_of_searches_channel_once on deliveries (channel_id, usage_epoch)
  where kind = 'out-of-searches' and channel_id is not null;
create index deliveries_channel_latest_idx on deliveries (channel_id, created_at desc) where channel_id is not null;
