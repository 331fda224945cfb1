-- A search's events its filters left out are kept beside those shown, marked hidden: the page says how many the
-- filters hid and shows them on request (decision 076). Hidden ones never make an event "seen" for later searches.
alter table search_events add column hidden boolean not null default false;
