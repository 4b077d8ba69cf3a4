-- Admin actions that changed state, each written in the transaction of its change. No foreign key
-- to users: the trail outlives the accounts it names.
create table audit_log (
  id bigint generated always as identity primary key,
  actor_id uuid not null,
  action text not null,
  target_type text not null,
  target_id text not null,
  at timestamptz not null default now(),
  summary jsonb not null default '{}'
);

-- Newest first, whole or filtered by actor, target or action.
create index audit_log_by_actor on audit_log (actor_id, id desc);
create index audit_log_by_target on audit_log (target_id, id desc);
create index audit_log_by_action on audit_log (action, id desc);
