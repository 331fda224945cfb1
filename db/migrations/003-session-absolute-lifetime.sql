-- Sessions now end at the latest 30 days after sign-in (db/sessions.ts SESSION_MAX_AGE_MS) as well as after
-- their sliding idle time. Rows written before that rule may slide beyond it: cap them, so expires_at alone
-- says when every session ends and the worker's cleanup (delete where expires_at <= now()) finds them all.
update sessions set expires_at = least(expires_at, created_at + interval '30 days');
