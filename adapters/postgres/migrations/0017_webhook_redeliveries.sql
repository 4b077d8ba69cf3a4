-- How often each delivery was sent again by an admin. Each redelivery is a run with a job of its
-- own (its dedupe key names the run), so the job of the run before, still finishing, can neither
-- keep the new one out nor send the delivery a second time.
alter table webhook_deliveries add column redeliveries integer not null default 0 check (redeliveries >= 0);
