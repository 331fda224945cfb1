-- The worker's sweep (every 5 minutes) looks for runs left 'running' by a worker that died. timer_runs gains a
-- row per fire and keeps it, so without this index the sweep read the whole table each time; with it, the
-- sweep reads only the few runs that are running.
create index timer_runs_running_idx on timer_runs (started_at) where status = 'running';
