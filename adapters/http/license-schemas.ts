import { t } from "elysia";
import type { InvalidReason } from "../../application/licensing/license-service.ts";
import { Int } from "../../kit/schema-types.ts";
import { named } from "./openapi-models.ts";
import { everyOf, Time, Uuid } from "./shared-schemas.ts";

export const LicensePublicKeySchema = named(
  "LicensePublicKey",
  t.Object({ algorithm: t.Literal("Ed25519"), format: t.Literal("spki-pem"), public_key: t.String() }),
);

const NextHeartbeat = t.Nullable(
  t.String({
    format: "date-time",
    description: "Check in again before this, or lose a floating seat; null when the license asks for none",
  }),
);

export const LicenseActivationSchema = named(
  "LicenseActivation",
  t.Object({
    activated: t.Literal(true),
    new_activation: t.Boolean({ description: "False when this fingerprint was already activated" }),
    activations: Int(),
    max_activations: Int(),
    next_heartbeat_before: NextHeartbeat,
  }),
);

export const LicenseHeartbeatSchema = named(
  "LicenseHeartbeat",
  t.Object({ machine_id: Uuid, next_heartbeat_before: NextHeartbeat }),
);

export const LicenseFileSchema = named(
  "LicenseFileCheckout",
  t.Object({
    license_file: t.String({
      description:
        'The file to keep on the machine: JSON `{"format":"MKTF1","payload","signature"}`, the Ed25519 signature over `MKTF1.<payload>` (see the README)',
    }),
    expires_at: Time,
  }),
);

const Reason = everyOf<InvalidReason>()([
  "revoked",
  "suspended",
  "expired",
  "replaced",
  "fingerprint_not_activated",
  "heartbeat_missed",
]);

export const LicenseValidationSchema = named(
  "LicenseValidation",
  t.Union([
    t.Object({
      valid: t.Literal(false),
      code: t.Literal("LICENSE_NOT_FOUND"),
      reason: t.Literal("unknown_or_tampered"),
    }),
    t.Object({
      valid: t.Boolean(),
      code: t.Nullable(
        t.String({
          description:
            "Why not valid: `LICENSE_REVOKED`, `LICENSE_SUSPENDED`, `LICENSE_EXPIRED`, `LICENSE_REPLACED`, `FINGERPRINT_NOT_ACTIVATED` or `HEARTBEAT_MISSED`; null when valid",
        }),
      ),
      reason: t.Nullable(Reason),
      license_id: Uuid,
      product_id: Uuid,
      product_name: t.String(),
      license_type: t.String(),
      expires_at: t.Nullable(Time),
      activations: Int(),
      max_activations: Int(),
      floating: t.Boolean(),
    }),
  ]),
);
