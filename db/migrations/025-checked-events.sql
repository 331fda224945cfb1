-- A timer can deliver only events a page confirmed, corrected or gave (decision 069); by default it delivers all,
-- each marked with how it was checked. An event's check itself (`verification`) lives in its stored JSON.
alter table timers add column checked_only boolean not null default false;
