-- Feeds carry a window (decision 039): events that end (or start) no earlier than 30 days ago, at most a few
-- hundred. The window's edge is a column the feed query can use an index for: the event's end, else its start,
-- as an instant. The event's times are ISO 8601 with an offset, or a date alone for all-day events (midnight
-- UTC is near enough for a window counted in days); anything else gives null, which no window holds (such an
-- event has no start a calendar could show anyway). Never raises, so no insert can fail on it.
create or replace function event_instant(value text) returns timestamptz
language plpgsql immutable parallel safe as $$
begin
  if value ~ '^\d{4}-\d{2}-\d{2}$' then
    return (value || 'T00:00:00Z')::timestamptz;
  end if;
  if value ~ '^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$' then
    return value::timestamptz;
  end if;
  return null;
exception when others then
  return null;
end $$;

-- Adding a stored generated column rewrites timer_events once (it holds writes to it while it runs).
alter table timer_events add column if not exists feed_until timestamptz
  generated always as (coalesce(event_instant(event ->> 'ends_at'), event_instant(event ->> 'starts_at'))) stored;

-- A poll reads the window's count and latest change from this index alone (changed_at is included).
create index if not exists timer_events_feed_idx on timer_events (timer_id, feed_until) include (changed_at);
