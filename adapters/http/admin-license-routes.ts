import { Elysia, t } from "elysia";
import type { makeAdminLicenses } from "../../application/licensing/admin-licenses.ts";
import { type AdminLicense, LICENSE_STATUSES, type LicenseEvent } from "../../application/licensing/admin-ports.ts";
import type { Machine } from "../../application/licensing/ports.ts";
import { Int } from "../../kit/schema-types.ts";
import { type AuthOptions, createAuth } from "./auth-plugin.ts";
import { MachineSchema, toMachineBody } from "./customer-schemas.ts";
import { named, page } from "./openapi-models.ts";
import { Cursor, IdParams, ListLimit, oneOf, pageRequest, Time, Uuid } from "./shared-schemas.ts";

type AdminLicenses = ReturnType<typeof makeAdminLicenses>;

export interface AdminLicenseDeps
  extends Pick<
    AdminLicenses,
    | "listAdminLicenses"
    | "getAdminLicense"
    | "suspendLicense"
    | "reinstateLicense"
    | "resetLicenseMachines"
    | "extendLicense"
    | "reissueLicense"
  > {
  readonly auth: AuthOptions;
}

const AdminLicenseSchema = named(
  "AdminLicense",
  t.Object({
    id: Uuid,
    customer_id: Uuid,
    customer_email: t.String(),
    product_id: Uuid,
    product_name: t.String(),
    order_id: Uuid,
    license_type: t.String(),
    license_key: t.String(),
    status: oneOf(LICENSE_STATUSES),
    held: t.Boolean({ description: "Suspended by an admin: only a reinstate lifts it" }),
    max_activations: Int(),
    floating: t.Boolean(),
    heartbeat_seconds: t.Nullable(Int()),
    offline_checkout_max_days: Int(),
    activations: Int(),
    reissues: Int({ description: "How many times the shop gave it a new key" }),
    expires_at: t.Nullable(Time),
    created_at: Time,
  }),
);

const LicenseEventSchema = named(
  "LicenseEvent",
  t.Object({
    id: t.String(),
    kind: t.String({ description: "issued, activated, deactivated, released, machines_reset, suspended, ..." }),
    actor: t.String({ description: "`software`, `customer`, `system` or `admin:<user id>`" }),
    fingerprint: t.Nullable(t.String()),
    detail: t.Record(t.String(), t.Unknown()),
    at: Time,
  }),
);

const AdminLicenseDetailsSchema = named(
  "AdminLicenseDetails",
  t.Object({ license: AdminLicenseSchema, machines: t.Array(MachineSchema), history: t.Array(LicenseEventSchema) }),
);

const toLicenseBody = (license: AdminLicense) => ({
  ...license,
  expires_at: license.expires_at?.toISOString() ?? null,
  created_at: license.created_at.toISOString(),
});

const toDetailsBody = (details: { license: AdminLicense; machines: Machine[]; history: LicenseEvent[] }) => ({
  license: toLicenseBody(details.license),
  machines: details.machines.map(toMachineBody),
  history: details.history.map((event) => ({ ...event, at: event.at.toISOString() })),
});

const action = (summary: string, description: string) => ({
  params: IdParams,
  response: { 200: AdminLicenseDetailsSchema },
  detail: { summary, description },
});

/** The shop's staff on licenses: find, inspect, and act on one. */
export function createAdminLicenseRoutes(deps: AdminLicenseDeps) {
  return new Elysia({ name: "admin-license-routes", tags: ["admin: licenses"] })
    .use(createAuth(deps.auth))
    .guard({ auth: "admin", detail: { security: [{ bearer: [] }] } }, (app) =>
      app
        .get(
          "/api/admin/licenses",
          async ({ query }) => {
            const { cursor, limit, ...filter } = query;
            const found = await deps.listAdminLicenses(filter, pageRequest({ cursor, limit }));
            return { items: found.items.map(toLicenseBody), next_cursor: found.next_cursor };
          },
          {
            query: t.Object({
              customer_email: t.Optional(t.String({ minLength: 3, maxLength: 254 })),
              product_id: t.Optional(t.String({ format: "uuid" })),
              status: t.Optional(oneOf(LICENSE_STATUSES)),
              key_prefix: t.Optional(
                t.String({ minLength: 8, maxLength: 4096, description: "The start of the key, 8 characters or more" }),
              ),
              cursor: Cursor,
              limit: ListLimit,
            }),
            response: { 200: page(AdminLicenseSchema) },
            detail: { summary: "Licenses, newest first, by customer email, product, status or the start of a key" },
          },
        )
        .get(
          "/api/admin/licenses/:id",
          async ({ params }) => toDetailsBody(await deps.getAdminLicense(params.id)),
          action("One license with its machines and its history (newest first, the last 100)", "Unknown: `404`."),
        )
        .post(
          "/api/admin/licenses/:id/suspend",
          async ({ params, principal }) => toDetailsBody(await deps.suspendLicense(params.id, principal.userId)),
          action(
            "Suspend a license until an admin reinstates it",
            "A renewal or a won dispute does not lift it. The customer is told (`license.suspended`). A revoked license is `409` `LICENSE_REVOKED`.",
          ),
        )
        .post(
          "/api/admin/licenses/:id/reinstate",
          async ({ params, principal }) => toDetailsBody(await deps.reinstateLicense(params.id, principal.userId)),
          action(
            "Lift a suspension, an admin's or the billing's",
            "The customer is told (`license.reinstated`). A license not suspended is `409` `LICENSE_NOT_SUSPENDED`.",
          ),
        )
        .post(
          "/api/admin/licenses/:id/reset-machines",
          async ({ params, principal }) => toDetailsBody(await deps.resetLicenseMachines(params.id, principal.userId)),
          action("Free every seat of a license", "Each machine activates again."),
        )
        .post(
          "/api/admin/licenses/:id/extend",
          async ({ params, body, principal }) =>
            toDetailsBody(await deps.extendLicense(params.id, body.days, principal.userId)),
          {
            ...action(
              "Move a license's expiry later by whole days",
              "From its expiry, or from now when that has passed. A perpetual license is `409` `LICENSE_PERPETUAL`.",
            ),
            body: t.Object({ days: Int({ minimum: 1, maximum: 3650 }) }, { additionalProperties: false }),
          },
        )
        .post(
          "/api/admin/licenses/:id/reissue",
          async ({ params, principal }) => toDetailsBody(await deps.reissueLicense(params.id, principal.userId)),
          action(
            "Give a license a new key; the old key stops at once",
            "Same license, seats and machines; the old key answers `LICENSE_REPLACED`. The customer is emailed the new key (`license.reissued`).",
          ),
        ),
    );
}
