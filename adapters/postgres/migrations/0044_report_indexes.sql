-- Revenue reports read the ledger by when each payment was recorded.
create index payments_created on payments (created_at);
