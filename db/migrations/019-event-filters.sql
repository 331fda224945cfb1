-- A timer's event filters (date window, place and radius, attendance, excluded words; core/contract/timer-filters.ts),
-- null for none. A search made with filters from the page records them beside its question (decision 044).
alter table timers add column filters jsonb;
alter table searches add column filters jsonb;
