-- A refund reservation remembers what its attempts at the gateway left uncertain, and which request
-- made it:
alter table refunds
  -- An attempt's outcome was never learned (a time-out, a 5xx, a broken connection after sending):
  -- the gateway may have refunded, so a later refusal does not release the reservation.
  add column outcome_unknown boolean not null default false,
  -- The hash of the request body the reservation was made for: a retry under the same
  -- Idempotency-Key with another body is refused instead of taking the reservation up.
  add column request_hash text;
