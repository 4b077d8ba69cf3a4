import { Elysia, t } from "elysia";
import type { makeLicenseService } from "../../application/licensing/license-service.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { Int } from "../../kit/schema-types.ts";
import {
  LicenseActivationSchema,
  LicenseFileSchema,
  LicenseHeartbeatSchema,
  LicensePublicKeySchema,
  LicenseValidationSchema,
} from "./license-schemas.ts";

export interface LicenseDeps {
  readonly licensing: ReturnType<typeof makeLicenseService>;
}

const Key = t.String({ minLength: 1, maxLength: 4096 });
const Fingerprint = t.String({ minLength: 1, maxLength: 200 });

/** The key, as `license_key` or (as activation first named it) `key`: one of the two. */
const KeyFields = {
  license_key: t.Optional(Key),
  key: t.Optional(t.String({ minLength: 1, maxLength: 4096, description: "Same as `license_key`" })),
};

function keyOf(body: { license_key?: string | undefined; key?: string | undefined }): string {
  const key = body.license_key ?? body.key;
  if (key === undefined || (body.license_key !== undefined && body.key !== undefined)) {
    throw new ValidationFailed([{ path: "/license_key", code: "REQUIRED", message: "give the key as license_key" }]);
  }
  return key;
}

const MachineKey = t.Object({ ...KeyFields, fingerprint: Fingerprint }, { additionalProperties: false });
const tags = ["licensing"];

/**
 * What installed software calls, with its key as the credential: activation, heartbeats, seat
 * release, validation and offline license files. Rate limited as the "licenses" group.
 */
export function createLicenseRoutes(deps: LicenseDeps) {
  const licensing = deps.licensing;
  return new Elysia({ name: "license-routes" })
    .get(
      "/api/licenses/public-key",
      () => ({ algorithm: "Ed25519" as const, format: "spki-pem" as const, public_key: licensing.publicKeyPem() }),
      {
        response: { 200: LicensePublicKeySchema },
        detail: { tags, summary: "The public key that verifies license keys and license files offline" },
      },
    )
    .post(
      "/api/licenses/activate",
      ({ body }) =>
        licensing.activate(keyOf(body), body.fingerprint, {
          name: body.name,
          platform: body.platform,
          hostname: body.hostname,
        }),
      {
        body: t.Object(
          {
            ...KeyFields,
            fingerprint: Fingerprint,
            name: t.Optional(
              t.String({ minLength: 1, maxLength: 100, description: "What the customer calls the machine" }),
            ),
            platform: t.Optional(t.String({ minLength: 1, maxLength: 40, description: "Such as `linux-x64`" })),
            hostname: t.Optional(t.String({ minLength: 1, maxLength: 253 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: LicenseActivationSchema },
        detail: {
          tags,
          summary: "Activate a license on a machine (idempotent per fingerprint)",
          description:
            "Every seat taken is `409` `ACTIVATION_LIMIT_REACHED`; on a floating license it carries `retry_after`, the seconds until a seat may free. A revoked, suspended, expired or replaced license is `409` `LICENSE_REVOKED`, `LICENSE_SUSPENDED`, `LICENSE_EXPIRED` or `LICENSE_REPLACED`.",
        },
      },
    )
    .post("/api/licenses/deactivate", ({ body }) => licensing.deactivate(keyOf(body), body.fingerprint), {
      body: MachineKey,
      response: { 200: t.Object({ deactivated: t.Literal(true) }) },
      detail: {
        tags,
        summary: "Give a machine's seat back, from the software itself (an uninstall)",
        description:
          "A key that is not genuine is `404` `LICENSE_NOT_FOUND`; a fingerprint the license is not activated on (freed before) `404` `MACHINE_NOT_FOUND`.",
      },
    })
    .post("/api/licenses/heartbeat", ({ body }) => licensing.heartbeat(keyOf(body), body.fingerprint), {
      body: MachineKey,
      response: { 200: LicenseHeartbeatSchema },
      detail: {
        tags,
        summary: "The machine is alive: keeps a floating seat for another heartbeat period",
        description:
          "A machine not activated is `409` `FINGERPRINT_NOT_ACTIVATED`; a floating machine past its `next_heartbeat_before` has lost its seat: `409` `HEARTBEAT_MISSED`, and it activates again.",
      },
    })
    .post("/api/licenses/checkout", ({ body }) => licensing.checkout(keyOf(body), body.fingerprint, body.ttl_days), {
      body: t.Object(
        {
          ...KeyFields,
          fingerprint: Fingerprint,
          ttl_days: Int({ minimum: 1, maximum: 365, description: "Days the file works offline" }),
        },
        { additionalProperties: false },
      ),
      response: { 200: LicenseFileSchema },
      detail: {
        tags,
        summary: "Check out a signed license file for a machine that will be offline",
        description:
          "Bound to the fingerprint, which must be activated (`409` `FINGERPRINT_NOT_ACTIVATED`). `ttl_days` past the license's `offline_checkout_max_days` is `422`; a license whose policy allows none `409` `OFFLINE_CHECKOUT_DISABLED`. The file never outlives the license's expiry.",
      },
    })
    .post("/api/licenses/validate", ({ body }) => licensing.validate(keyOf(body), body.fingerprint), {
      body: t.Object({ ...KeyFields, fingerprint: t.Optional(Fingerprint) }, { additionalProperties: false }),
      response: { 200: LicenseValidationSchema },
      detail: {
        tags,
        summary: "Whether a key works now, and on a given machine",
        description:
          "`200` either way; `code` says why not. With a `fingerprint`, a machine not activated is `FINGERPRINT_NOT_ACTIVATED` and one past its heartbeat `HEARTBEAT_MISSED`. Nothing in the answer names the customer.",
      },
    });
}
