-- Sign-in attempts per account (its normalized email, whether or not an account has it): the count
-- since the last success and until when no attempt is taken. Shared by every instance.
create table sign_in_attempts (
  email text primary key,
  failures integer not null check (failures >= 0),
  locked_until timestamptz,
  last_attempt_at timestamptz not null
);
create index sign_in_attempts_by_age on sign_in_attempts (last_attempt_at);

-- A domain belongs to at most one installation that is not cancelled, from the moment a customer
-- names it (still awaiting set-up) on. Two sharing one cannot be told apart automatically: the
-- migration stops and names them, for operations to cancel all but one first.
do $$
declare
  taken text;
begin
  select string_agg(domain, ', ') into taken from (
    select lower(domain) as domain from installations
    where domain is not null and status <> 'cancelled'
    group by lower(domain) having count(*) > 1
  ) duplicates;
  if taken is not null then
    raise exception 'installations share a domain: %; cancel all but one of each, then start again', taken;
  end if;
end
$$;
create unique index installations_live_domain on installations (lower(domain)) where status <> 'cancelled';
