-- Events as data (decision 010): what each search and timer run found, what each timer has seen, feed tokens.

-- The answer text of a search, for GET /api/searches/:id (a timer run keeps its own copy in timer_runs.answer).
alter table searches add column answer text;

-- The events of one search, in the order shown; `event` is the contract's Event as it was found.
create table search_events (
  search_id bigint not null references searches (id) on delete cascade,
  position integer not null,
  key text not null,
  event jsonb not null,
  primary key (search_id, key)
);
-- "Has this user seen this event before" looks up the key across the user's searches.
create index search_events_key_idx on search_events (key);

-- The events of one timer run: new ones are those the timer never saw, changed ones moved or were cancelled.
create table timer_run_events (
  run_id bigint not null references timer_runs (id) on delete cascade,
  position integer not null,
  key text not null,
  event jsonb not null,
  is_new boolean not null,
  changed boolean not null,
  primary key (run_id, key)
);

-- Every event a timer has seen, its latest version: the only-new memory and the content of its iCal feed.
create table timer_events (
  timer_id bigint not null references timers (id) on delete cascade,
  key text not null,
  event jsonb not null,
  -- iCalendar SEQUENCE: bumped whenever the event changes, so subscribed calendars replace their copy.
  sequence integer not null default 0,
  first_run_id bigint references timer_runs (id) on delete set null,
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  changed_at timestamptz not null default now(),
  primary key (timer_id, key)
);

-- Feed URLs carry a token derived from a server secret and this random nonce; only its hash is looked up.
-- A new nonce is a new token: the old URL no longer matches any hash and answers 404.
alter table timers add column feed_nonce text;
alter table timers add column feed_token_hash text unique;
