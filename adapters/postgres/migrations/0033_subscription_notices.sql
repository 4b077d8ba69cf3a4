-- A notice about a subscription (a failed renewal, a trial ending, a renewal) is sent once per
-- occurrence, whichever of several events or ticks reports it: the outbox keeps its key.
alter table outbox add column once_key text;
create unique index outbox_once_key on outbox (once_key) where once_key is not null;
