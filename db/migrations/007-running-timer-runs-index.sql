-- The worker's sweep (every 5 minutes) looks for runs left 'running' by a worker that died. timer_runs gains a
-- row per fire and keeps it, so without this index the sweep read the whole table each time; with it, the
-- sweep reads only the few runs that are running.
-- Building it holds writes to timer_runs until it is built. On a large table, build it beforehand with the same
-- statement and CREATE INDEX CONCURRENTLY; this migration then finds it there.
create index if not exists timer_runs_running_idx on timer_runs (started_at) where status = 'running';
