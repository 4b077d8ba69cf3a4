-- Every license validation and checkout reads the license's download entitlement by the license:
-- without this index that was a scan of every entitlement (1.7 ms at 10,000 licenses, growing with
-- the install base; docs/performance.md).
create index download_entitlements_license on download_entitlements (license_id);
