-- Replays: an admin asks an endpoint's events of a time window to be sent again, in creation order
-- and at a bounded rate. A job pages through the window by the cursor kept here and sends each
-- event under its delivery (same `webhook-id`); the deliveries it sent carry its id, so their
-- states give its progress. One replay per endpoint runs at a time.
create table webhook_replays (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
  since timestamptz not null,
  until timestamptz not null check (until > since),
  only_failed boolean not null,
  status text not null default 'running' check (status in ('running', 'completed')),
  total integer not null check (total >= 0),
  processed integer not null default 0 check (processed >= 0),
  cursor_created_at timestamptz,
  cursor_event_id uuid,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);

create unique index webhook_replays_one_running on webhook_replays (endpoint_id) where status = 'running';

-- The replay that last sent a delivery; its list of deliveries and its progress.
alter table webhook_deliveries add column replay_id uuid references webhook_replays (id) on delete set null;
create index webhook_deliveries_by_replay on webhook_deliveries (replay_id, state) where replay_id is not null;
