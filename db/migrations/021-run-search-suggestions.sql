-- A timer run's answer is shown on the page with Google's Search Suggestions beside it, as an ask's is: the run's
-- search is found by its run (decision 042, Google's display rule).
create index if not exists searches_timer_run_idx on searches (timer_run_id) where timer_run_id is not null;
