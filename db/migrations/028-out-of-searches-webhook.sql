-- The out-of-searches notice goes to timers' webhooks too: by email once per user and allowance period (as
-- before), by webhook once per timer and period, since each timer's webhook may be a different receiver.
drop index deliveries_out_of_searches_once;
create unique index deliveries_out_of_searches_once on deliveries (user_id, usage_epoch)
  where kind = 'out-of-searches' and channel = 'email';
create unique index deliveries_out_of_searches_webhook_once on deliveries (timer_id, usage_epoch)
  where kind = 'out-of-searches' and channel = 'webhook';
