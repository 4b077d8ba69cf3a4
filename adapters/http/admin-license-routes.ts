import { Elysia, t } from "elysia";
import type { makeAdminLicenses } from "../../application/licensing/admin-licenses.ts";
import { type AdminLicense, LICENSE_STATUSES, type LicenseEvent } from "../../application/licensing/admin-ports.ts";
import type { Machine } from "../../application/licensing/ports.ts";
import { Int } from "../../kit/schema-types.ts";
import { LicenseListFilter } from "./admin-list-filters.ts";
import { type AuthOptions, createAuth, type Principal } from "./auth-plugin.ts";
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
    key_hint: t.String({ description: "The key's last 12 characters, to match what a customer reads out" }),
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
  t.Object({
    license: AdminLicenseSchema,
    license_key: t.Nullable(
      t.String({ description: "The whole key, for a signed-in admin only: null when an API key asks" }),
    ),
    machines: t.Array(MachineSchema),
    history: t.Array(LicenseEventSchema),
  }),
);

/** A license in a list: its key only as a hint, so that no list hands out every key at once. */
const toLicenseBody = ({ license_key, ...license }: AdminLicense) => ({
  ...license,
  key_hint: `…${license_key.slice(-12)}`,
  expires_at: license.expires_at?.toISOString() ?? null,
  created_at: license.created_at.toISOString(),
});

/** One license; the whole key to a person signed in, never to an API key. */
const toDetailsBody = (
  details: { license: AdminLicense; machines: Machine[]; history: LicenseEvent[] },
  principal: Principal,
) => ({
  license: toLicenseBody(details.license),
  license_key: principal.apiKey ? null : details.license.license_key,
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
            query: t.Object({ ...LicenseListFilter.properties, cursor: Cursor, limit: ListLimit }),
            response: { 200: page(AdminLicenseSchema) },
            detail: { summary: "Licenses, newest first, by customer email, product, status or the start of a key" },
          },
        )
        .get(
          "/api/admin/licenses/:id",
          async ({ params, principal }) => toDetailsBody(await deps.getAdminLicense(params.id), principal),
          action("One license with its machines and its history (newest first, the last 100)", "Unknown: `404`."),
        )
        .post(
          "/api/admin/licenses/:id/suspend",
          async ({ params, principal }) =>
            toDetailsBody(await deps.suspendLicense(params.id, principal.userId), principal),
          action(
            "Suspend a license until an admin reinstates it",
            "A renewal or a won dispute does not lift it. The customer is told (`license.suspended`). A revoked license is `409` `LICENSE_REVOKED`.",
          ),
        )
        .post(
          "/api/admin/licenses/:id/reinstate",
          async ({ params, principal }) =>
            toDetailsBody(await deps.reinstateLicense(params.id, principal.userId), principal),
          action(
            "Lift a suspension, an admin's or the billing's",
            "The customer is told (`license.reinstated`). A license not suspended is `409` `LICENSE_NOT_SUSPENDED`.",
          ),
        )
        .post(
          "/api/admin/licenses/:id/reset-machines",
          async ({ params, principal }) =>
            toDetailsBody(await deps.resetLicenseMachines(params.id, principal.userId), principal),
          action("Free every seat of a license", "Each machine activates again."),
        )
        .post(
          "/api/admin/licenses/:id/extend",
          async ({ params, body, principal }) =>
            toDetailsBody(await deps.extendLicense(params.id, body.days, principal.userId), principal),
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
          async ({ params, principal }) =>
            toDetailsBody(await deps.reissueLicense(params.id, principal.userId), principal),
          action(
            "Give a license a new key; the old key stops at once",
            "Same license, seats and machines; the old key answers `LICENSE_REPLACED`. The customer is emailed the new key (`license.reissued`).",
          ),
        ),
    );
}
