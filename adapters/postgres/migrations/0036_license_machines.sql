-- An activation is a machine: it has an id the customer can free it by, what the software says of
-- it, and when it was last seen.

alter table license_activations
  add column id uuid not null default gen_random_uuid() unique,
  add column name text check (char_length(name) <= 100),
  add column platform text check (char_length(platform) <= 40),
  add column hostname text check (char_length(hostname) <= 253),
  add column last_seen_at timestamptz not null default now();
