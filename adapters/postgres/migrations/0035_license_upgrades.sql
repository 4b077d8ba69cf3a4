-- A license upgraded from one type to another (regular to extended) by an order of its own: the
-- order item that paid for it names the license, and the license keeps its previous key working
-- for a grace period after it is re-signed.

create table license_upgrades (
  order_item_id uuid primary key references order_items (id),
  license_id uuid not null references licenses (id),
  from_type text not null,
  to_type text not null,
  created_at timestamptz not null default now()
);
create index license_upgrades_license on license_upgrades (license_id);

alter table licenses
  add column previous_key text unique,
  add column previous_key_valid_until timestamptz,
  add constraint licenses_previous_key_check check ((previous_key is null) = (previous_key_valid_until is null));
