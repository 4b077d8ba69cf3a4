-- The activation policy a license was issued under (the product's driver config at the time, so a
-- later change of the product does not move licenses already sold), an admin's hold, and each
-- license's history.

alter table licenses
  add column floating boolean not null default false,
  add column heartbeat_seconds integer check (heartbeat_seconds between 60 and 604800),
  add column offline_checkout_max_days integer not null default 0
    check (offline_checkout_max_days between 0 and 365),
  -- Suspended by an admin: a renewal or a won dispute does not lift it, only a reinstate does.
  add column held boolean not null default false,
  add constraint licenses_floating_has_heartbeat check (not floating or heartbeat_seconds is not null);

-- A machine holding a license file keeps its seat until the file expires, heartbeats or not.
alter table license_activations add column checked_out_until timestamptz;

-- The minute tick looks for floating machines that stopped checking in.
create index license_activations_last_seen on license_activations (last_seen_at);

create table license_events (
  id bigint generated always as identity primary key,
  license_id uuid not null references licenses (id),
  kind text not null check (kind in (
    'issued', 'activated', 'deactivated', 'released', 'machines_reset', 'suspended', 'reinstated',
    'extended', 'reissued', 'upgraded', 'upgrade_reverted', 'revoked', 'checked_out'
  )),
  -- Who: 'software' (the key holder), 'customer', 'admin:<user id>', 'system'.
  actor text not null,
  fingerprint text,
  detail jsonb not null default '{}',
  at timestamptz not null default now()
);
create index license_events_license on license_events (license_id, at desc, id desc);
