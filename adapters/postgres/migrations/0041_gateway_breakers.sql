-- The circuit breaker of each gateway in each environment, shared by every instance: a checkout
-- reads it before calling the gateway, and updates it under the row's lock after the call
-- (docs/decisions/gateway-failover.md). No row is a closed breaker with no failures.
create table gateway_breakers (
  gateway text not null,
  environment text not null check (environment in ('sandbox', 'live')),
  consecutive_failures integer not null default 0 check (consecutive_failures >= 0),
  opened_at timestamptz,
  -- The half-open trial call under way, if any: one at a time across instances.
  trial_started_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (gateway, environment)
);
