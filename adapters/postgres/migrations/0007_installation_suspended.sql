-- An installation can be suspended (a lapsed subscription) and resumed without being torn down.
alter table installations drop constraint installations_status_check;
alter table installations add constraint installations_status_check
  check (status in ('awaiting_domain', 'provisioning', 'active', 'suspended', 'cancelled'));
