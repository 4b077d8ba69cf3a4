-- A secret reference has one name: lower case, every character other than a-z and 0-9 as `_`
-- (`SECRET_<REF>` is that name upper-cased). Rows kept under another spelling move to it.

-- A value keeps the spelling it was sealed under (the cipher's additional data) in `sealed_ref`.
-- Where several spellings of one name hold a value, the one stored last wins.
alter table secrets add column sealed_ref text;

delete from secrets s
using (
  select ref, row_number() over (
    partition by regexp_replace(lower(ref), '[^a-z0-9]', '_', 'g') order by updated_at desc, ref) as rank
  from secrets
) ranked
where s.ref = ranked.ref and ranked.rank > 1;

update secrets set sealed_ref = ref, ref = regexp_replace(lower(ref), '[^a-z0-9]', '_', 'g')
where ref <> regexp_replace(lower(ref), '[^a-z0-9]', '_', 'g');

-- A spelling of a gateway's well-known reference has that reference's purpose, whatever it claimed.
delete from secret_purposes
where regexp_replace(lower(ref), '[^a-z0-9]', '_', 'g') ~ '^gateway_[ab]_(sandbox|live)_(api_key|client_key|webhook_secret)$';

-- Where several spellings claimed a purpose, the first declared holds, as a first use does.
delete from secret_purposes p
using (
  select ref, row_number() over (
    partition by regexp_replace(lower(ref), '[^a-z0-9]', '_', 'g') order by declared_at, ref) as rank
  from secret_purposes
) ranked
where p.ref = ranked.ref and ranked.rank > 1;

update secret_purposes set ref = regexp_replace(lower(ref), '[^a-z0-9]', '_', 'g')
where ref <> regexp_replace(lower(ref), '[^a-z0-9]', '_', 'g');
