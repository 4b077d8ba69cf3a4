-- Every verified gateway webhook, once per (gateway, event_id): stored before it is acknowledged, processed by a job (docs/decisions/gateway-webhooks-stored-once.md).
create table webhook_inbox (
  id uuid primary key default gen_random_uuid(),
  gateway text not null,
  event_id text not null,
  event_type text not null,
  kind text not null,
  payload text not null,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  unique (gateway, event_id)
);

create table fulfillment_records (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders (id),
  order_item_id uuid not null unique references order_items (id),
  product_id uuid not null references products (id),
  customer_id uuid not null references users (id),
  driver text not null,
  status text not null check (status in (
    'queued', 'processing', 'active', 'awaiting_customer', 'manual_pending', 'failed', 'cancelled'
  )),
  external_reference_id text,
  external_workspace_url text,
  external_customer_id text,
  external_status text,
  attempts integer not null default 0,
  last_error text,
  payload_snapshot jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index fulfillment_records_order on fulfillment_records (order_id);
create index fulfillment_records_customer on fulfillment_records (customer_id, created_at desc);
create index fulfillment_records_admin on fulfillment_records (status, driver, created_at desc, id);

create table external_tenant_links (
  fulfillment_record_id uuid primary key references fulfillment_records (id),
  provider text not null,
  external_tenant_id text not null,
  external_subscription_id text,
  external_user_id text,
  created_at timestamptz not null default now()
);

create table subscriptions (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references orders (id),
  order_item_id uuid not null unique references order_items (id),
  customer_id uuid not null references users (id),
  product_id uuid not null references products (id),
  gateway text not null,
  gateway_subscription_id text,
  status text not null check (status in ('trialing', 'active', 'past_due', 'suspended', 'cancelled')),
  billing_interval text not null check (billing_interval in ('monthly', 'yearly')),
  trial_ends_at timestamptz,
  current_period_end timestamptz,
  cancelled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index subscriptions_gateway_ref on subscriptions (gateway, gateway_subscription_id);
create index subscriptions_lapsing on subscriptions (status, current_period_end);

create table installations (
  id uuid primary key default gen_random_uuid(),
  fulfillment_record_id uuid not null unique references fulfillment_records (id),
  customer_id uuid not null references users (id),
  product_id uuid not null references products (id),
  server_profile text not null,
  resource_limits_profile text not null,
  domain_strategy text not null check (domain_strategy in ('subdomain', 'customer_domain')),
  domain text,
  url text,
  status text not null check (status in ('awaiting_domain', 'provisioning', 'active', 'cancelled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table licenses (
  id uuid primary key default gen_random_uuid(),
  fulfillment_record_id uuid not null unique references fulfillment_records (id),
  customer_id uuid not null references users (id),
  product_id uuid not null references products (id),
  license_type text not null,
  license_key text not null unique,
  max_activations integer not null check (max_activations > 0),
  expires_at timestamptz,
  status text not null check (status in ('active', 'revoked')),
  created_at timestamptz not null default now()
);

create table license_activations (
  license_id uuid not null references licenses (id),
  fingerprint text not null,
  created_at timestamptz not null default now(),
  primary key (license_id, fingerprint)
);

create table download_entitlements (
  id uuid primary key default gen_random_uuid(),
  fulfillment_record_id uuid not null unique references fulfillment_records (id),
  license_id uuid not null references licenses (id),
  customer_id uuid not null references users (id),
  product_id uuid not null references products (id),
  artifact_source text not null,
  version text,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);

create table ops_tasks (
  id uuid primary key default gen_random_uuid(),
  fulfillment_record_id uuid not null references fulfillment_records (id),
  kind text not null check (kind in ('manual_fulfillment', 'provisioning')),
  queue_id text not null,
  instructions text not null,
  due_at timestamptz not null,
  status text not null check (status in ('open', 'completed', 'cancelled')),
  result jsonb,
  completed_at timestamptz,
  completed_by uuid references users (id),
  created_at timestamptz not null default now()
);

create unique index ops_tasks_one_open on ops_tasks (fulfillment_record_id, kind) where status = 'open';
create index ops_tasks_queue on ops_tasks (status, due_at);

-- Notifications leave through an outbox written with the state change that caused them.
create table outbox (
  id uuid primary key default gen_random_uuid(),
  kind text not null,
  payload jsonb not null,
  created_at timestamptz not null default now(),
  dispatched_at timestamptz
);

create index outbox_pending on outbox (created_at) where dispatched_at is null;

create table notifications (
  id uuid primary key default gen_random_uuid(),
  outbox_id uuid not null unique references outbox (id),
  customer_id uuid not null references users (id),
  kind text not null,
  title text not null,
  body text not null,
  data jsonb not null default '{}',
  created_at timestamptz not null default now(),
  read_at timestamptz
);

create index notifications_customer on notifications (customer_id, created_at desc);
