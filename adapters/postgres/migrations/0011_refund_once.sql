-- A refund is counted once however it is reported: by the admin who made it and by the gateway's
-- event about it, possibly at the same moment.
create unique index refunds_once on refunds (payment_id, gateway_refund_id);
