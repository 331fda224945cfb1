-- Run now makes its run row before it queues the job; picked_at says when a worker took the fire. A Run-now row
-- that no worker took within minutes (its job lost, Redis emptied) is ended by the worker's sweep instead of
-- blocking Run now until the hour-long abandoned-run sweep (worker/sweep-abandoned-runs.ts).
alter table timer_runs add column if not exists picked_at timestamptz;
update timer_runs set picked_at = started_at where status = 'running' and picked_at is null;

-- The sweep also ends searches left 'running' by a process that stopped mid-answer; this keeps it to those few.
create index if not exists searches_running_idx on searches (started_at) where status = 'running';
