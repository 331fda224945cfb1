-- What finding an answered search's events reads (the prompt, the website's reading, the answer's sources and any
-- events the answer gave), kept beside the search while its events are 'pending', so the job that finds them carries
-- the search's id only. Cleared when the events end, or when the sweep of abandoned ones ends them. `json`, not
-- `jsonb`: it is written and read whole, never queried, and a page's text may hold any character jsonb refuses.
alter table searches add column events_input json;
