-- What the minute tick prunes after 30 days, found without scanning whole tables: finished emails
-- and deliveries by age, and the deliveries of an event (an event goes once none is left).
create index emails_finished_by_age on emails (created_at) where state <> 'pending';
create index webhook_deliveries_finished_by_age on webhook_deliveries (created_at) where state <> 'pending';
create index webhook_deliveries_by_event on webhook_deliveries (event_id);
create index outgoing_events_by_age on outgoing_events (created_at);
