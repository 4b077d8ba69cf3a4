create table secrets (
  ref text primary key,
  iv bytea not null,
  ciphertext bytea not null,
  updated_at timestamptz not null default now()
);
