-- Every inbox entry holds its normalized event, so the payment job has one way to read an entry.
-- Entries stored before the event was kept (0012) hold only the raw body. The job never acts on
-- one again once it is processed, nor on one that was ignored on arrival: each is given the
-- `ignored` event of its type (the raw body stays in `payload`, its kind at arrival in `kind`).
-- One still waiting to be acted on cannot be normalized here without the gateway's own rules:
-- such an entry stops the migration, to be processed by the release before this one first.
do $$
declare
  waiting integer;
begin
  select count(*) into waiting from webhook_inbox
  where event is null and processed_at is null and kind <> 'ignored';
  if waiting > 0 then
    raise exception 'webhook_inbox holds % unprocessed event(s) stored without their normalized form; process them with the previous release, then migrate again', waiting;
  end if;
end $$;

update webhook_inbox
set event = jsonb_build_object(
  'format', 1,
  'event', jsonb_build_object('kind', 'ignored', 'gateway', gateway, 'event_id', event_id, 'type', event_type)
)
where event is null;

alter table webhook_inbox alter column event set not null;
