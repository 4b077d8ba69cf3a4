-- Keys for integrations (an ERP, a storefront server), in place of an admin's password. Only the
-- secret's SHA-256 is kept; `prefix` is its first characters, to tell keys apart in a list.
create table api_keys (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  prefix text not null,
  secret_hash text not null unique,
  scopes text[] not null,
  created_by uuid not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz
);

-- Who acted: an account, or an API key, named as it was when it acted.
alter table audit_log
  add column actor_kind text not null default 'user' check (actor_kind in ('user', 'api_key')),
  add column actor_name text;
