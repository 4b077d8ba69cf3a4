-- Emails to customers and to operations. Each is queued once per key (a notification, an alert)
-- in the transaction that caused it, sent by a job, and marked sent; its Message-ID is fixed when
-- queued, so a message the server took but whose answer was lost is sent again as the same one.
create table emails (
  id uuid primary key default gen_random_uuid(),
  idempotency_key text not null unique,
  template text not null,
  recipient text not null,
  data jsonb not null,
  message_id text not null unique,
  state text not null default 'pending' check (state in ('pending', 'sent', 'dead')),
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);

-- Tasks past their due time are alerted once.
alter table ops_tasks add column overdue_alerted_at timestamptz;

-- A customer's unread notifications.
create index notifications_unread on notifications (customer_id, created_at desc) where read_at is null;

-- Dead jobs are alerted once per death (a redrive and a second death alert again).
alter table jobs add column dead_alerted_at timestamptz;
