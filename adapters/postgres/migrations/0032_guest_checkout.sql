-- Guest checkout: a buyer who has no account gets a guest customer record for the address, with no
-- password; it cannot sign in. One guest record per address, apart from the accounts: an account
-- whose address is not yet proven must not see what a guest bought with it. The guest record is
-- folded into the account when the account proves the address (users/guest_merge in the code).
alter table users alter column password_hash drop not null;
alter table users add column guest boolean not null default false;
alter table users add constraint users_guest_has_no_password
  check ((guest and password_hash is null and role = 'customer') or (not guest and password_hash is not null));

drop index users_email_key;
create unique index users_email_key on users (lower(email)) where not guest;
create unique index users_guest_email_key on users (lower(email)) where guest;

-- 'claim' links are the ones a guest's emails carry: opening one sets a password on the guest record.
alter table email_links drop constraint email_links_purpose_check;
alter table email_links add constraint email_links_purpose_check check (purpose in ('verify', 'change', 'claim'));
