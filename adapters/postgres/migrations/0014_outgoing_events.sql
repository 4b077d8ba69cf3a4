-- Events for the shop's own systems, written with the state change that caused them; a fan-out
-- job turns each into one delivery per subscribed endpoint.
create table outgoing_events (
  id uuid primary key default gen_random_uuid(),
  type text not null,
  data jsonb not null,
  created_at timestamptz not null default now()
);
