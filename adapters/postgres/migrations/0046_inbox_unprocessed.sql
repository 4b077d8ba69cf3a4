-- Webhook events waiting to be acted on, oldest first (ignored ones are stored only to be recognised again): what the metrics' inbox lag reads on every scrape.
create index webhook_inbox_unprocessed on webhook_inbox (received_at) where processed_at is null and kind <> 'ignored';

-- The fulfillments and outgoing deliveries still in motion or needing someone, which the metrics
-- count at each scrape; settled ones (active, cancelled, succeeded) pile up with history.
create index fulfillment_records_unsettled on fulfillment_records (driver, status)
  where status not in ('active', 'cancelled');
create index webhook_deliveries_unsettled on webhook_deliveries (state) where state <> 'succeeded';
