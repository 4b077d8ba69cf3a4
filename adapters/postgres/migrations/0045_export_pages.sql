-- The CSV export of payments reads every payment newest first, a page at a time: each page starts
-- in this index where the previous one stopped instead of sorting the table again. Orders have
-- `orders_admin_listing` (created_at desc, id), which serves the same read.
create index payments_newest on payments (created_at desc, id desc);
