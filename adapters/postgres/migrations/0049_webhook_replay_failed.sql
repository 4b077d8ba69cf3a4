-- A replay whose step job is dead-lettered ends `failed`, with the step's last error, instead of
-- staying `running` with nothing left to send it. A redrive of that job takes it up again.
alter table webhook_replays drop constraint webhook_replays_status_check;
alter table webhook_replays add constraint webhook_replays_status_check
  check (status in ('running', 'completed', 'cancelled', 'failed'));
alter table webhook_replays add column last_error text;
