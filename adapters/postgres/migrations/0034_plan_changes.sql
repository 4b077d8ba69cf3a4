-- Plan changes: the difference a change bills at once is a payment of its own, and a change that
-- waits for the end of the paid period is kept on the subscription until the gateway applies it.

alter table payments drop constraint payments_kind_check;
alter table payments add constraint payments_kind_check check (kind in ('initial', 'renewal', 'proration'));

alter table subscriptions
  add column pending_interval text check (pending_interval in ('monthly', 'yearly')),
  add column pending_at timestamptz,
  add constraint subscriptions_pending_check check ((pending_interval is null) = (pending_at is null));
