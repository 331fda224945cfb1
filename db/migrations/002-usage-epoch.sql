-- A counter of allowance periods: it goes up whenever searches_used starts again from 0 (a free month rolls,
-- a paid renewal). A credit is given back only in the period it was taken in, so a refund that arrives after
-- a new period has begun cannot add a search to the new allowance.
alter table accounts add column usage_epoch integer not null default 0;
-- The period a timer run's credit was taken in, for its refund.
alter table timer_runs add column credit_epoch integer;
