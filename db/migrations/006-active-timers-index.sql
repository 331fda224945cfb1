-- The reconcile pass (decision 029) reads the active timers a page at a time in id order. This index gives the
-- pages in order without a sort, whatever the planner's statistics say: on a million freshly inserted timers,
-- before autovacuum had analysed them, the planner read every active timer and sorted them for each page.
-- Building it holds writes to timers until it is built. On a large table, build it beforehand with the same
-- statement and CREATE INDEX CONCURRENTLY; this migration then finds it there.
create index if not exists timers_active_id_idx on timers (id) where deleted_at is null and paused_at is null;
