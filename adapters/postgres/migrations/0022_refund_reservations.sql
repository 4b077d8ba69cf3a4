-- Idempotency keys are kept per user (a customer at checkout, an admin refunding) and per route: the
-- same key sent to two routes names two requests.
alter table idempotency_keys rename column customer_id to user_id;
alter table idempotency_keys add column route text not null default 'checkout.create';
alter table idempotency_keys alter column route drop default;
alter table idempotency_keys drop constraint idempotency_keys_pkey;
alter table idempotency_keys add primary key (user_id, route, key);

-- An admin's refund is reserved under the payment's lock before the gateway is asked: a `reserved`
-- row counts against what is left to refund until the gateway's answer settles it (it becomes
-- `succeeded` with the gateway's id) or releases it (it is deleted). Its id names the refund at the
-- gateway, so asking again after a crash or a lost answer never refunds twice.
alter table refunds alter column gateway_refund_id drop not null;
alter table refunds drop constraint refunds_status_check;
alter table refunds add constraint refunds_status_check
  check (status in ('reserved', 'succeeded', 'pending', 'failed'));
alter table refunds add constraint refunds_named_check check (status = 'reserved' or gateway_refund_id is not null);
alter table refunds
  -- What the ledger held as refunded when the reservation was made: the refund cannot be part of it.
  add column refunded_before bigint,
  -- The admin's Idempotency-Key (with the admin's id): a retry under it takes up the same reservation.
  add column request_key text,
  -- Who is asking the gateway about this reservation, until when: one asker at a time.
  add column claimed_until timestamptz;
create unique index refunds_reserved_request on refunds (payment_id, request_key) where status = 'reserved';
create index refunds_reserved on refunds (payment_id) where status = 'reserved';
