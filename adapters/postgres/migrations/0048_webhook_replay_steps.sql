-- A replay can be cancelled: its step job stops at its next event, and the endpoint may replay again.
alter table webhook_replays drop constraint webhook_replays_status_check;
alter table webhook_replays add constraint webhook_replays_status_check
  check (status in ('running', 'completed', 'cancelled'));

-- Each run of a replay's step takes the lease (one more than before) as it starts and checks it
-- before every event it sends: a run that another has since taken over stops without sending.
alter table webhook_replays add column lease integer not null default 0;

-- A replay's step reads the events after its cursor in (created_at, id) order: with this index it
-- reads just the next ones instead of scanning and sorting the rest of the window.
create index outgoing_events_by_time_and_id on outgoing_events (created_at, id);
-- It serves the pruning by age as well as the index on created_at alone did.
drop index outgoing_events_by_age;
