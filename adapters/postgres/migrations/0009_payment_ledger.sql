-- The ledger of every movement of money, and orders that wait for a person when their money is wrong.

alter table orders drop constraint orders_status_check;
alter table orders add constraint orders_status_check check (status in (
  'pending_payment', 'checkout_failed', 'paid', 'flagged', 'partially_refunded', 'refunded', 'disputed',
  'charged_back', 'cancelled'
));
alter table orders
  add column needs_attention boolean not null default false,
  add column attention_reason text,
  -- How the gateway was told to treat tax when the checkout opened: the payment is checked under it.
  add column tax_behavior text not null default 'exclusive' check (tax_behavior in ('exclusive', 'inclusive'));
create index orders_needing_attention on orders (created_at desc, id) where needs_attention;

alter table payments
  add column kind text not null default 'initial' check (kind in ('initial', 'renewal')),
  add column tax bigint not null default 0 check (tax >= 0),
  add column invoice_id text,
  add column charge_id text,
  add column payment_intent_id text,
  add column charged_back_amount bigint not null default 0 check (charged_back_amount >= 0);
alter table payments add constraint payments_retained_check check (refunded_amount + charged_back_amount <= amount);
create index payments_invoice on payments (gateway, invoice_id) where invoice_id is not null;
create index payments_charge on payments (gateway, charge_id) where charge_id is not null;
create index payments_payment_intent on payments (gateway, payment_intent_id) where payment_intent_id is not null;

create table disputes (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null references payments (id),
  gateway text not null,
  gateway_dispute_id text not null,
  amount bigint not null check (amount >= 0),
  currency text not null,
  status text not null check (status in ('open', 'won', 'lost')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (gateway, gateway_dispute_id)
);
create index disputes_payment on disputes (payment_id);

-- Which environment's webhook secret verified an event: a payment binds only to an order of that environment.
alter table webhook_inbox add column environment text check (environment in ('sandbox', 'live'));

alter table gateway_settings
  add column tax_behavior text not null default 'exclusive' check (tax_behavior in ('exclusive', 'inclusive'));

-- A synced price is used at checkout only while its tax behaviour is still the gateway's.
alter table gateway_product_refs
  add column tax_behavior text check (tax_behavior in ('exclusive', 'inclusive'));
