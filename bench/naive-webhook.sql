-- The naive intake of one signed webhook, for pgbench (bench/webhooks.ts): one transaction per
-- event with the statements the marketplace ran per event before group commit: the inbox row
-- (raw body and normalized event, unique event id), its payment_event job keyed by the inbox id,
-- the workers' wake-up, commit. Run in pgbench's default simple-query mode (`:inbox_id` is
-- substituted as text, hence the quotes) against a marketplace started with JOBS_ENABLED=false, so
-- no worker claims these jobs.
BEGIN;
INSERT INTO webhook_inbox (gateway, event_id, environment, event_type, kind, payload, event)
VALUES (
  'gateway_b', 'evt_pgbench_' || gen_random_uuid(), 'sandbox', 'paid', 'paid',
  '{"id":"evt_bench_5e117279-d658-491f-81b6-797a7851f8e8","object":"event","type":"checkout.session.completed","created":1700000000,"data":{"object":{"id":"cs_bench_5e117279-d658-491f-81b6-797a7851f8e8","object":"checkout.session","client_reference_id":"5e117279-d658-491f-81b6-797a7851f8e8","payment_status":"paid","amount_total":2900,"currency":"usd","payment_intent":"pi_bench_5e117279-d658-491f-81b6-797a7851f8e8","metadata":{"order_id":"5e117279-d658-491f-81b6-797a7851f8e8"}}}}',
  '{"format":1,"event":{"kind":"paid","gateway":"gateway_b","event_id":"evt_bench_5e117279-d658-491f-81b6-797a7851f8e8","livemode":null,"amount":2900,"tax":0,"pre_tax":2900,"currency":"USD","order_id":"5e117279-d658-491f-81b6-797a7851f8e8","payment":{"payment_id":"pi_bench_5e117279-d658-491f-81b6-797a7851f8e8","invoice_id":null,"payment_intent_id":"pi_bench_5e117279-d658-491f-81b6-797a7851f8e8"},"subscription":null}}'::jsonb
)
ON CONFLICT (gateway, event_id) DO NOTHING
RETURNING id AS inbox_id \gset
INSERT INTO jobs (kind, payload, run_at, dedupe_key, max_attempts)
VALUES ('payment_event', jsonb_build_object('inbox_id', ':inbox_id'), now(), 'inbox:' || ':inbox_id', NULL)
ON CONFLICT (dedupe_key) WHERE state IN ('pending', 'running') DO NOTHING;
SELECT pg_notify('mkt_jobs', 'payment_event');
COMMIT;
