-- What a discount code took off an order, its lines and each payment.

alter table orders
  add column discount_id uuid references discounts (id),
  -- The code as the customer's order shows it, kept should the discount be renamed by a new one.
  add column discount_code text,
  -- Taken off the first payment.
  add column discount_total bigint not null default 0 check (discount_total >= 0),
  -- Payments the discount lowers, the first included; null with a discount: every one.
  add column discount_payments integer check (discount_payments > 0),
  -- Taken off each renewal while the discount lasts (the renewing items' price, discounted).
  add column discount_renewal bigint not null default 0 check (discount_renewal >= 0),
  add constraint orders_discount_code check ((discount_id is null) = (discount_code is null)),
  add constraint orders_discount_total check (discount_id is not null or discount_total = 0);

-- The checkouts holding a discount, counted under its lock when another checkout wants it.
create index orders_discount on orders (discount_id, status) where discount_id is not null;

alter table order_items add column discount bigint not null default 0 check (discount >= 0);

-- What the gateway took off this payment, as it reported it.
alter table payments add column discount bigint not null default 0 check (discount >= 0);

-- The ids a gateway gave a discount code, per environment: a sandbox id never names a live one.
create table gateway_discount_refs (
  discount_id uuid not null references discounts (id),
  gateway text not null,
  environment text not null check (environment in ('sandbox', 'live')),
  -- What the gateway needs told apart for one code (Paddle: how many periods it recurs for).
  slot text not null,
  remote_id text not null,
  created_at timestamptz not null default now(),
  primary key (discount_id, gateway, environment, slot)
);
