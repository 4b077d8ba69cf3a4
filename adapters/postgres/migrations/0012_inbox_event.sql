-- The event as normalized when the webhook arrived, so the payment job reads it instead of
-- normalizing the raw payload again (which stays in `payload`, for audit). Null for entries
-- stored before this column: the job normalizes their raw payload once.
alter table webhook_inbox add column event jsonb;
