-- Every mutating route keeps its callers' Idempotency-Keys, not only checkout and refunds. A key is
-- the caller's (`user:<id>`, `key:<api key id>` or `anonymous`) for one route template
-- (`POST /api/admin/orders/:id/refund`). The answer is kept as it was sent, sealed with the
-- secrets key (an answer may show a secret once: a new API key, an endpoint's signing secret):
-- status, content type and the exact bytes, to be replayed byte for byte.
create table idempotent_requests (
  caller text not null,
  route text not null,
  key text not null,
  request_hash text not null,
  state text not null check (state in ('in_progress', 'completed')),
  status_code integer,
  content_type text,
  iv bytea,
  sealed_body bytea,
  created_at timestamptz not null default now(),
  primary key (caller, route, key),
  constraint idempotent_requests_completed check (
    state = 'in_progress' or (status_code is not null and iv is not null and sealed_body is not null))
);

-- Keys expire after 24 hours: the minute tick deletes them by age.
create index idempotent_requests_created_at on idempotent_requests (created_at);

-- The keys of the routes that kept their own (stored as parsed JSON, not as sent, so they cannot be
-- replayed byte for byte) last a day at most: they are let go.
drop table idempotency_keys;
