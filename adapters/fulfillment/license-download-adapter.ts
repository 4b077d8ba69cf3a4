import type { IssuedLicense, LicenseWriter } from "../../application/fulfillment/license-ports.ts";
import type {
  FulfillmentAdapter,
  FulfillmentContext,
  FulfillmentOutcome,
} from "../../application/fulfillment/ports.ts";
import type { Clock } from "../../application/shared/clock-and-log.ts";
import { driverConfig } from "../../domain/fulfillment/driver-config.ts";
import type { LicenseSigner } from "../licensing/license-signer.ts";

/** Key claims are whole seconds; the stored expiry says the same instant as the key. */
const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

const delivered = ({ license, entitlement }: IssuedLicense): FulfillmentOutcome => ({
  status: "active",
  external_reference_id: license.id,
  external_status: license.status,
  snapshot: { license_id: license.id, entitlement_id: entitlement.id },
});

/**
 * Self-hosted software: an Ed25519-signed license key (checkable offline) plus a download
 * entitlement for the product's `default_release_version`. Seats multiply the activation policy:
 * `max_activations` x quantity. A subscription's key expires with the paid period current at
 * issue; a one-time purchase is perpetual.
 *
 * The license record follows its subscription: suspend and resume move its status, a renewal
 * moves its expiry to the new period end, cancel revokes license and entitlement. Online
 * validation and downloads see the record; the key itself is not reissued, so a machine that is
 * offline trusts the key's `exp` (the period paid at issue) until it can ask again
 * (docs/decisions/licenses.md).
 */
export function createLicenseDownloadAdapter(deps: {
  licenses: LicenseWriter;
  signer: LicenseSigner;
  clock: Clock;
  /** How long a key replaced by an upgrade keeps working (`LICENSE_UPGRADE_GRACE_HOURS`). */
  upgradeGraceHours: number;
}): FulfillmentAdapter {
  const { licenses } = deps;
  /** The license a record delivered, or (for an upgrade's record) the license it upgraded. */
  const issuedFor = async (context: FulfillmentContext) => {
    const upgrade = await licenses.upgradeFor(context.item.id);
    const issued = upgrade
      ? await licenses.findById(upgrade.license_id)
      : await licenses.findForRecord(context.record.id);
    if (!issued) throw new Error(`fulfillment ${context.record.id} has no license`);
    return issued;
  };

  /**
   * An upgrade paid for: the same license takes the new type under a key signed anew (same id,
   * seats and expiry); the key it had keeps working for the grace period, so machines in the field
   * can fetch the new one.
   */
  async function upgrade(upgraded: { license_id: string; to_type: string }): Promise<FulfillmentOutcome> {
    const current = await licenses.findById(upgraded.license_id);
    if (!current) throw new Error(`license ${upgraded.license_id} does not exist`);
    if (current.license.license_type === upgraded.to_type) return delivered(current);
    const { license } = current;
    const key = await deps.signer.sign({
      lid: license.id,
      pid: license.product_id,
      cid: license.customer_id,
      typ: upgraded.to_type,
      max: license.max_activations,
      iat: unixSeconds(deps.clock()),
      exp: license.expires_at === null ? null : unixSeconds(license.expires_at),
    });
    const graceUntil = new Date(deps.clock().getTime() + deps.upgradeGraceHours * 3_600_000);
    const changed = await licenses.upgrade(license.id, {
      license_type: upgraded.to_type,
      license_key: key,
      previous_key_valid_until: graceUntil,
    });
    if (!changed) throw new Error(`license ${license.id} does not exist`);
    return delivered(changed);
  }
  const move = async (context: FulfillmentContext, change: Parameters<LicenseWriter["changeForRecord"]>[1]) => {
    // An upgrade's record holds no license of its own: a dispute of the upgrade's payment leaves the
    // license the customer paid for first as it is; a lost one takes the upgrade back (cancel).
    if (await licenses.upgradeFor(context.item.id)) {
      return { external_status: (await issuedFor(context)).license.status };
    }
    const changed = await licenses.changeForRecord(context.record.id, change);
    if (!changed) throw new Error(`fulfillment ${context.record.id} has no license`);
    return { external_status: changed.license.status };
  };

  async function revert(upgraded: { license_id: string; from_type: string; to_type: string }) {
    const current = await licenses.findById(upgraded.license_id);
    if (!current) throw new Error(`license ${upgraded.license_id} does not exist`);
    const { license } = current;
    if (license.license_type !== upgraded.to_type) return { external_status: license.status };
    const key = await deps.signer.sign({
      lid: license.id,
      pid: license.product_id,
      cid: license.customer_id,
      typ: upgraded.from_type,
      max: license.max_activations,
      iat: unixSeconds(deps.clock()),
      exp: license.expires_at === null ? null : unixSeconds(license.expires_at),
    });
    const reverted = await licenses.revertUpgrade(license.id, {
      upgraded_type: upgraded.to_type,
      license_type: upgraded.from_type,
      license_key: key,
    });
    return { external_status: reverted?.license.status ?? license.status };
  }

  return {
    driver: "license_download",

    async fulfill(context) {
      const upgraded = await licenses.upgradeFor(context.item.id);
      if (upgraded) return upgrade(upgraded);
      const existing = await licenses.findForRecord(context.record.id);
      if (existing) return delivered(existing);

      const config = driverConfig(context.product, "license_download");
      const id = crypto.randomUUID();
      const licenseType = context.item.license_type ?? config.license_type;
      const maxActivations = config.max_activations * context.item.quantity;
      const periodEnd = context.item.payment_type === "subscription" ? context.subscription?.current_period_end : null;
      const exp = periodEnd ? unixSeconds(periodEnd) : null;
      const key = await deps.signer.sign({
        lid: id,
        pid: context.product.id,
        cid: context.record.customer_id,
        typ: licenseType,
        max: maxActivations,
        iat: unixSeconds(deps.clock()),
        exp,
      });
      return delivered(
        await licenses.issue({
          license: {
            id,
            fulfillment_record_id: context.record.id,
            customer_id: context.record.customer_id,
            product_id: context.product.id,
            license_type: licenseType,
            license_key: key,
            max_activations: maxActivations,
            floating: config.floating ?? false,
            heartbeat_seconds: config.heartbeat_seconds ?? null,
            offline_checkout_max_days: config.offline_checkout_max_days ?? 0,
            expires_at: exp === null ? null : new Date(exp * 1000),
          },
          entitlement: { artifact_source: config.artifact_source, version: context.product.default_release_version },
        }),
      );
    },

    syncStatus: async (context) => ({ external_status: (await issuedFor(context)).license.status }),

    suspend: (context) => move(context, { from: "active", to: "suspended" }),
    resume: (context) => move(context, { from: "suspended", to: "active" }),
    renew: (context) => {
      const periodEnd = context.subscription?.current_period_end;
      return move(context, {
        from: "suspended",
        to: "active",
        ...(periodEnd ? { expiresAt: new Date(unixSeconds(periodEnd) * 1000) } : {}),
      });
    },

    async cancel(context) {
      // An upgrade refunded or lost in a dispute is taken back: the license returns to the type
      // first paid for, under a key of that type, and the upgraded key stops working.
      const upgraded = await licenses.upgradeFor(context.item.id);
      if (upgraded) return revert(upgraded);
      await licenses.revokeForRecord(context.record.id);
      return { external_status: "revoked" };
    },
  };
}
