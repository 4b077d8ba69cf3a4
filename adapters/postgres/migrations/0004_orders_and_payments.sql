create table orders (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid not null references users (id),
  status text not null check (status in (
    'pending_payment', 'checkout_failed', 'paid', 'flagged', 'partially_refunded', 'refunded', 'cancelled'
  )),
  currency text not null,
  subtotal bigint not null check (subtotal >= 0),
  total bigint not null check (total >= 0),
  due_today bigint not null check (due_today >= 0),
  payment_gateway text not null check (payment_gateway in ('gateway_a', 'gateway_b')),
  gateway_environment text not null check (gateway_environment in ('sandbox', 'live')),
  metadata text not null,
  checkout_session_id text,
  checkout_url text,
  flagged_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index orders_customer on orders (customer_id, created_at desc, id);
create index orders_admin_listing on orders (created_at desc, id);
create unique index orders_checkout_session on orders (payment_gateway, checkout_session_id);

create table order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders (id) on delete cascade,
  position integer not null,
  product_id uuid not null references products (id),
  product_name text not null,
  variant text not null check (variant in ('regular', 'extended', 'monthly', 'yearly')),
  payment_type text not null check (payment_type in ('one_time', 'subscription')),
  license_type text,
  billing_interval text check (billing_interval in ('monthly', 'yearly')),
  unit_price bigint not null check (unit_price >= 0),
  quantity integer not null check (quantity > 0),
  amount bigint not null check (amount >= 0),
  trial_days integer,
  due_today bigint not null check (due_today >= 0),
  delivery_model text not null,
  fulfillment_driver text not null,
  options jsonb not null default '{}',
  unique (order_id, position)
);

create table payments (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders (id),
  gateway text not null,
  payment_id text not null,
  amount bigint not null check (amount >= 0),
  currency text not null,
  refunded_amount bigint not null default 0 check (refunded_amount >= 0 and refunded_amount <= amount),
  created_at timestamptz not null default now(),
  unique (gateway, payment_id)
);

create index payments_order on payments (order_id);

create table refunds (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null references payments (id),
  gateway_refund_id text not null,
  amount bigint not null check (amount > 0),
  status text not null check (status in ('succeeded', 'pending', 'failed')),
  created_at timestamptz not null default now()
);

create table idempotency_keys (
  customer_id uuid not null references users (id),
  key text not null,
  request_hash text not null,
  state text not null check (state in ('in_progress', 'completed')),
  status_code integer,
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (customer_id, key)
);

create table gateway_settings (
  gateway text primary key check (gateway in ('gateway_a', 'gateway_b')),
  environment text not null check (environment in ('sandbox', 'live')),
  sandbox jsonb not null,
  live jsonb not null,
  webhook_tolerance_seconds integer not null check (webhook_tolerance_seconds between 1 and 3600),
  timeout_seconds integer not null check (timeout_seconds between 1 and 120),
  updated_at timestamptz not null default now()
);

-- Gateway-side ids of a product and its variant prices, per environment, so switching between
-- sandbox and live never mixes them: an order is paid only in the environment it was opened in.
create table gateway_product_refs (
  product_id uuid not null references products (id),
  gateway text not null,
  environment text not null check (environment in ('sandbox', 'live')),
  slot text not null check (slot in ('product', 'regular', 'extended', 'monthly', 'yearly')),
  remote_id text not null,
  -- The amount a price was last synced with: checkout uses the price id only while it still matches.
  amount bigint,
  currency text,
  updated_at timestamptz not null default now(),
  primary key (product_id, gateway, environment, slot)
);
