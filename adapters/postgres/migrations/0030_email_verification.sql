-- Email verification and changes of address. Accounts made before it are unverified: nothing in
-- them proves the address. A session kept through a password change is named by its id and the
-- token version its tokens carry (see domain/identity/account.ts).
alter table users
  add column email_verified_at timestamptz,
  add column kept_session_id text,
  add column kept_session_version integer;

-- Links that prove an address: 'verify' confirms the account's own, 'change' moves the account to
-- `email`. Only each token's SHA-256 is kept. A change of address spends every open link of the account.
create table email_links (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  email text not null,
  purpose text not null check (purpose in ('verify', 'change')),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

create index email_links_user on email_links (user_id, created_at);
