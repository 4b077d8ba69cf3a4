create table products (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  slug text not null,
  description text not null default '',
  status text not null check (status in ('draft', 'published', 'archived')),
  tags text[] not null default '{}',
  seo_title text,
  seo_description text,
  delivery_model text not null,
  fulfillment_driver text not null,
  external_provider text,
  external_product_ref text,
  default_release_version text,
  repo_path text,
  fulfillment_config jsonb not null default '{}',
  is_recurring boolean not null default false,
  supports_trial boolean not null default false,
  trial_days integer check (trial_days is null or trial_days > 0),
  enabled_payment_gateways text[] not null,
  default_payment_gateway text not null,
  gwa_product_id_regular text,
  gwa_product_id_extended text,
  gwa_product_id_monthly text,
  gwa_product_id_yearly text,
  price_regular bigint check (price_regular >= 0),
  price_extended bigint check (price_extended >= 0),
  price_monthly bigint check (price_monthly >= 0),
  price_yearly bigint check (price_yearly >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint products_default_gateway_enabled check (default_payment_gateway = any (enabled_payment_gateways))
);

create unique index products_slug_key on products (slug);
create index products_public_listing on products (status, name, id);
create index products_tags on products using gin (tags);

create table product_pricing_mappings (
  id uuid primary key default gen_random_uuid(),
  product_id uuid not null references products (id) on delete cascade,
  payment_type text not null check (payment_type in ('one_time', 'subscription')),
  license_type text,
  billing_interval text check (billing_interval in ('monthly', 'yearly')),
  price bigint not null check (price >= 0),
  is_active boolean not null default true,
  position integer not null,
  created_at timestamptz not null default now(),
  constraint mapping_billing_shape check (
    (payment_type = 'one_time' and license_type is not null and billing_interval is null)
    or (payment_type = 'subscription' and billing_interval is not null)
  )
);

create index product_pricing_mappings_product on product_pricing_mappings (product_id, position);
-- The database backs the domain rule: one active mapping per variant.
create unique index product_pricing_mappings_one_active_one_time
  on product_pricing_mappings (product_id, license_type) where is_active and payment_type = 'one_time';
create unique index product_pricing_mappings_one_active_subscription
  on product_pricing_mappings (product_id, billing_interval) where is_active and payment_type = 'subscription';
