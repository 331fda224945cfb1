-- A webhook that answered 410 Gone is removed from its timer; this sentence says so on the timer (until a new
-- address is set) and once in the timer's next digest (webhook_gone_mailed false until then).
alter table timers
  add column webhook_gone_notice text,
  add column webhook_gone_mailed boolean not null default true;
