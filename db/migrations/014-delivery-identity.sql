-- Deliveries at least once with a stable identity, so receivers can drop a repeat (decision 038).
-- target: the address a message is for, fixed when it is recorded (the user's email, the timer's webhook URL):
-- every attempt goes there, not to whatever the timer says by the time of a retry. Null on older rows.
alter table deliveries add column if not exists target text;

-- The per-timer secret webhooks are signed with (Standard Webhooks: whsec_ and base64 of 32 random bytes).
-- Made when a webhook address is saved and shown to the user once, in that reply.
alter table timers add column if not exists webhook_secret text;

-- The sweep that recovers deliveries left 'sending' by a worker that died reads only those.
create index if not exists deliveries_sending_idx on deliveries (updated_at) where status = 'sending';
