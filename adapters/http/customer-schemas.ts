import { t } from "elysia";
import type { CustomerLicense } from "../../application/customers/ports.ts";
import type { Machine } from "../../application/licensing/ports.ts";
import type { NextActionKind } from "../../domain/dashboard/next-action.ts";
import { FULFILLMENT_STATUSES } from "../../domain/fulfillment/fulfillment.ts";
import { Int } from "../../kit/schema-types.ts";
import { DriverSchema } from "./catalog-schemas.ts";
import { named } from "./openapi-models.ts";
import { everyOf, oneOf, Time, Uuid } from "./shared-schemas.ts";

const LicenseStatus = everyOf<CustomerLicense["status"]>()(["active", "suspended", "revoked"]);

/** What the customer can do next about an item; the fields beyond `url` depend on `kind`. */
export const NextActionSchema = named(
  "NextAction",
  t.Object({
    kind: everyOf<NextActionKind>()([
      "pay",
      "wait",
      "open_workspace",
      "download",
      "provide_domain",
      "verify_email",
      "wait_for_team",
      "retry",
      "renew",
      "contact_support",
      "delivered",
    ]),
    label: t.String(),
    url: t.Optional(t.String()),
    reason: t.Optional(t.String({ description: "contact_support and renew: why" })),
    due_at: t.Optional(t.Nullable(Time)),
    license_key: t.Optional(t.String({ description: "download: the key to activate" })),
    activations_used: t.Optional(Int()),
    max_activations: t.Optional(Int()),
  }),
);

export const DashboardItemSchema = named(
  "DashboardItem",
  t.Object({
    order_id: Uuid,
    order_item_id: Uuid,
    fulfillment_id: t.Nullable(Uuid),
    product_id: Uuid,
    product_name: t.String(),
    delivery_model: t.String(),
    driver: DriverSchema,
    variant: t.String(),
    payment_gateway: t.String(),
    status: oneOf([...FULFILLMENT_STATUSES, "pending_payment"]),
    external_status: t.Nullable(t.String()),
    next_action: NextActionSchema,
    purchased_at: Time,
  }),
);

export const LicenseSchema = named(
  "License",
  t.Object({
    id: Uuid,
    product_id: Uuid,
    product_name: t.String(),
    license_type: t.String(),
    license_key: t.String(),
    max_activations: Int(),
    activations: Int(),
    floating: t.Boolean({ description: "Seats are a pool: a machine that stops its heartbeats gives its seat back" }),
    offline_checkout_max_days: Int({ description: "Longest offline license file a machine may have; 0: none" }),
    expires_at: t.Nullable(Time),
    status: LicenseStatus,
    entitlement_id: t.Nullable(t.String()),
    download_url: t.Nullable(t.String({ description: "A signed, expiring link to the release" })),
    created_at: Time,
  }),
);

export const InstallationSchema = named(
  "Installation",
  t.Object({
    id: Uuid,
    fulfillment_record_id: Uuid,
    product_id: Uuid,
    product_name: t.String(),
    domain: t.Nullable(t.String()),
    url: t.Nullable(t.String()),
    status: t.String(),
    created_at: Time,
  }),
);

/** One machine a license is activated on. */
export const MachineSchema = named(
  "Machine",
  t.Object({
    id: t.String({ format: "uuid" }),
    fingerprint: t.String(),
    name: t.Nullable(t.String()),
    platform: t.Nullable(t.String()),
    hostname: t.Nullable(t.String()),
    activated_at: Time,
    last_seen_at: Time,
    checked_out_until: t.Nullable(
      t.String({
        format: "date-time",
        description: "It holds an offline license file, and its seat, until then",
      }),
    ),
  }),
);

export const toMachineBody = (machine: Machine) => ({
  ...machine,
  activated_at: machine.activated_at.toISOString(),
  last_seen_at: machine.last_seen_at.toISOString(),
  checked_out_until: machine.checked_out_until?.toISOString() ?? null,
});
