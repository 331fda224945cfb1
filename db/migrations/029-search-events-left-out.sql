-- A search keeps at most a fixed number of its events (docs/decisions/events-as-data.md); how many it found beyond
-- them is kept beside it, so its reply can say so.
alter table searches add column events_left_out integer not null default 0;
