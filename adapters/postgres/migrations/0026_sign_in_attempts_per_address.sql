-- Sign-in attempts are counted per client address on an account as well as for the account from
-- every address: `client` is the address, or '' for the account-wide count. Rows kept from before
-- are the account-wide counts.
alter table sign_in_attempts add column client text not null default '';
alter table sign_in_attempts drop constraint sign_in_attempts_pkey;
alter table sign_in_attempts add primary key (email, client);
