-- The auth guard reads role and account state from here on every request (through a cache of at
-- most 5 s) instead of trusting the token. Raising token_version voids every token issued before.
alter table users
  add column token_version integer not null default 0 check (token_version >= 0),
  add column disabled_at timestamptz;
