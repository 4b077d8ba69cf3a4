-- Webhook events waiting to be acted on, oldest first (ignored ones are stored only to be recognised again): what the metrics' inbox lag reads on every scrape.
create index webhook_inbox_unprocessed on webhook_inbox (received_at) where processed_at is null and kind <> 'ignored';
