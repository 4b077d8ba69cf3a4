/**
 * What the license driver stores: a signed key and the download entitlement that goes with it,
 * both kept per fulfillment record so a rerun finds what an earlier run issued.
 */

export interface License {
  readonly id: string;
  readonly fulfillment_record_id: string;
  readonly customer_id: string;
  readonly product_id: string;
  readonly license_type: string;
  readonly license_key: string;
  readonly max_activations: number;
  /** The activation policy it was issued under (the product's, at the time). */
  readonly floating: boolean;
  readonly heartbeat_seconds: number | null;
  readonly offline_checkout_max_days: number;
  /** Null: perpetual. */
  readonly expires_at: Date | null;
  /** Suspended follows a lapsed or disputed subscription and comes back; revoked is final. */
  readonly status: "active" | "suspended" | "revoked";
  readonly created_at: Date;
}

/** The right to download the product's release artifacts, tied to a license. */
export interface DownloadEntitlement {
  readonly id: string;
  readonly fulfillment_record_id: string;
  readonly license_id: string;
  readonly customer_id: string;
  readonly product_id: string;
  readonly artifact_source: string;
  readonly version: string | null;
  readonly revoked_at: Date | null;
  readonly created_at: Date;
}

export interface IssuedLicense {
  readonly license: License;
  readonly entitlement: DownloadEntitlement;
}

export interface LicenseWriter {
  findForRecord(fulfillmentRecordId: string): Promise<IssuedLicense | undefined>;
  findById(licenseId: string): Promise<IssuedLicense | undefined>;
  /** The license an order item paid to upgrade, and the type it upgrades it to; undefined for any other item. */
  upgradeFor(
    orderItemId: string,
  ): Promise<{ readonly license_id: string; readonly from_type: string; readonly to_type: string } | undefined>;
  /**
   * Gives the license its new type and key; the key it had keeps working until
   * `previous_key_valid_until`. A license already of that type is left as it is (the upgrade ran
   * before). Undefined when the license does not exist.
   */
  upgrade(
    licenseId: string,
    change: { license_type: string; license_key: string; previous_key_valid_until: Date },
  ): Promise<IssuedLicense | undefined>;
  /**
   * Stores a license and its download entitlement together. When the record already has them
   * (a concurrent or earlier run), those are returned and the new key is dropped.
   */
  issue(input: {
    license: Omit<License, "status" | "created_at">;
    entitlement: Pick<DownloadEntitlement, "artifact_source" | "version">;
  }): Promise<IssuedLicense>;
  /**
   * Takes an upgrade back (its payment was refunded or lost in a dispute): the license returns to
   * `license_type` under `license_key`, and every key it had before stops working at once. A
   * license not of the upgraded type is left as it is.
   */
  revertUpgrade(
    licenseId: string,
    change: { upgraded_type: string; license_type: string; license_key: string },
  ): Promise<IssuedLicense | undefined>;
  /** Revokes the record's license and entitlement; undefined when it has none. */
  revokeForRecord(fulfillmentRecordId: string): Promise<IssuedLicense | undefined>;
  /**
   * Moves the record's license from `from` to `to` (a license in any other status stays as it is)
   * and, when `expiresAt` is given, extends its expiry to it; never shortens it.
   */
  changeForRecord(
    fulfillmentRecordId: string,
    change: { from: License["status"]; to: License["status"]; expiresAt?: Date },
  ): Promise<IssuedLicense | undefined>;
}
