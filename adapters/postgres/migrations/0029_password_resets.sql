-- Password reset links: only each token's SHA-256 is kept, never the token. A link is spent once,
-- and a reset spends every other link of the account with it.
create table password_resets (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

create index password_resets_user on password_resets (user_id, created_at);
