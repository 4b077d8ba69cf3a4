-- What each secret reference may be used for. A gateway's secrets belong to one gateway and one
-- environment. References named for a gateway secret (`gateway_b_sandbox_webhook_secret`) have
-- their purpose by name and need no row.
create table secret_purposes (
  ref text primary key,
  kind text not null check (kind in ('provider_bearer_token', 'provider_hmac_key', 'gateway_api_key',
    'gateway_client_key', 'gateway_webhook_secret', 'smtp_password', 'license_signing_key')),
  gateway text check (gateway in ('gateway_a', 'gateway_b')),
  environment text check (environment in ('sandbox', 'live')),
  declared_at timestamptz not null default now(),
  check ((kind like 'gateway\_%') = (gateway is not null and environment is not null))
);

-- The settings saved so far name their secrets: each reference takes the purpose of the oldest
-- setting that uses it. A setting that pairs it with another purpose is refused when next used.
insert into secret_purposes (ref, kind, gateway, environment)
select distinct on (ref) ref, kind, gateway, environment
from (
  select p.fulfillment_config ->> 'credentials_ref' as ref,
         case p.fulfillment_config ->> 'auth_mode' when 'hmac' then 'provider_hmac_key' else 'provider_bearer_token' end as kind,
         null::text as gateway, null::text as environment, p.created_at as since
  from products p
  where p.fulfillment_driver = 'multitenant_saas' and p.fulfillment_config ->> 'credentials_ref' is not null
  union all
  select e.settings ->> f.field, f.kind, g.gateway, e.environment, g.updated_at
  from gateway_settings g
  cross join lateral (values ('sandbox', g.sandbox), ('live', g.live)) as e (environment, settings)
  cross join (values ('api_key_ref', 'gateway_api_key'), ('client_key_ref', 'gateway_client_key'),
                     ('webhook_secret_ref', 'gateway_webhook_secret'),
                     ('previous_webhook_secret_ref', 'gateway_webhook_secret')) as f (field, kind)
  where e.settings ->> f.field is not null
) uses
where ref !~ '^gateway_[ab]_(sandbox|live)_(api_key|client_key|webhook_secret)$'
order by ref, since;
