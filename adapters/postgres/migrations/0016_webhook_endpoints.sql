-- Receivers of outgoing webhooks. Signing secrets are sealed with the secrets key (AES-256-GCM,
-- the endpoint as additional data); after a rotation the replaced secret keeps signing beside the
-- new one until `previous_secret_expires_at`.
create table webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  url text not null,
  events text[] not null check (cardinality(events) > 0),
  description text,
  secret_iv bytea not null,
  secret_ciphertext bytea not null,
  previous_secret_iv bytea,
  previous_secret_ciphertext bytea,
  previous_secret_expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- One delivery per endpoint and event, sent by its job until acknowledged or given up on. Deleting
-- the endpoint deletes its deliveries, so the pending ones are never sent.
create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
  event_id uuid not null references outgoing_events (id),
  event_type text not null,
  state text not null default 'pending' check (state in ('pending', 'succeeded', 'dead')),
  attempts integer not null default 0,
  last_status_code integer,
  last_error text,
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  unique (endpoint_id, event_id)
);

-- An endpoint's deliveries, newest first, whole or by state.
create index webhook_deliveries_newest on webhook_deliveries (endpoint_id, created_at desc, id desc);
create index webhook_deliveries_by_state on webhook_deliveries (endpoint_id, state, created_at desc, id desc);
