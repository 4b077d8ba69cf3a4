-- Unpaid orders expire: a status of their own, and an index over exactly the orders still waiting
-- for their payment, which the minute tick reads oldest first.
alter table orders drop constraint orders_status_check;
alter table orders add constraint orders_status_check check (status in (
  'pending_payment', 'checkout_failed', 'paid', 'flagged', 'partially_refunded', 'refunded', 'disputed',
  'charged_back', 'cancelled', 'expired'
));
create index orders_awaiting_payment on orders (created_at, id) where status in ('pending_payment', 'checkout_failed');
