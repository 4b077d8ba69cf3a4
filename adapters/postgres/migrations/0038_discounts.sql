-- Discount codes: what an admin defines, and which paid orders redeemed each.

create table discounts (
  id uuid primary key default gen_random_uuid(),
  code text not null check (code ~ '^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$'),
  type text not null check (type in ('percent', 'fixed')),
  -- Basis points of the price for percent (10,000 is all of it), minor units for fixed.
  amount bigint not null check (amount > 0 and (type = 'fixed' or amount <= 10000)),
  currency text check ((type = 'fixed') = (currency is not null)),
  duration text not null check (duration in ('once', 'repeating', 'forever')),
  duration_in_months integer check (duration_in_months between 1 and 36),
  max_redemptions integer check (max_redemptions > 0),
  starts_at timestamptz,
  expires_at timestamptz,
  product_ids uuid[] not null default '{}',
  variants text[] not null default '{}',
  first_purchase_only boolean not null default false,
  disabled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint discounts_months_when_repeating check ((duration = 'repeating') = (duration_in_months is not null)),
  constraint discounts_window check (starts_at is null or expires_at is null or starts_at < expires_at)
);

-- One active discount per code, whatever its case; a disabled one frees its code.
create unique index discounts_active_code on discounts (lower(code)) where disabled_at is null;
create index discounts_created on discounts (created_at desc, id desc);

create table discount_redemptions (
  discount_id uuid not null references discounts (id),
  order_id uuid not null unique references orders (id),
  customer_id uuid not null references users (id),
  redeemed_at timestamptz not null default now(),
  primary key (discount_id, order_id)
);
