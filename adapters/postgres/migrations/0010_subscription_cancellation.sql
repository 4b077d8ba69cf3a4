-- A customer can let a subscription run to the end of its paid period; the gateway ends it then.
alter table subscriptions add column cancel_at_period_end boolean not null default false;

-- A license follows its subscription: suspended while the subscription lapses or its payment is disputed.
alter table licenses drop constraint licenses_status_check;
alter table licenses add constraint licenses_status_check check (status in ('active', 'suspended', 'revoked'));
