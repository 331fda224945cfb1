-- A run that failed for a reason that is not the timer's (the worker running it was stopped) is shown as failed
-- but does not count toward auto-pause, which is for timers whose own question or website keeps failing.
alter table timer_runs add column not_the_timers_fault boolean not null default false;
