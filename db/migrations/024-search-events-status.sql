-- An interactive search's events are found after its reply has ended (decision 068): until they are stored its row
-- says 'pending', then 'done', or 'failed' (the extraction or the writes failed; the events it has are kept).
-- Every other search (timer runs, refusals, failures, rows from before) has nothing still to come: 'done'.
alter table searches add column events_status text not null default 'done'
  check (events_status in ('pending', 'done', 'failed'));
