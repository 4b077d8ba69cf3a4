import type { PaymentGatewayName } from "../catalog/product.ts";
import type { GatewayEnvironment } from "../payments/gateway-event.ts";
import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";

/** What a secret is for. A gateway's secrets belong to one gateway and one of its environments. */
export const SECRET_PURPOSE_KINDS = [
  "provider_bearer_token",
  "provider_hmac_key",
  "gateway_api_key",
  "gateway_client_key",
  "gateway_webhook_secret",
  "smtp_password",
  "license_signing_key",
] as const;

export type SecretPurposeKind = (typeof SECRET_PURPOSE_KINDS)[number];
export type GatewaySecretKind = Extract<SecretPurposeKind, `gateway_${string}`>;

export type SecretPurpose =
  | { readonly kind: Exclude<SecretPurposeKind, GatewaySecretKind> }
  | {
      readonly kind: GatewaySecretKind;
      readonly gateway: PaymentGatewayName;
      readonly environment: GatewayEnvironment;
    };

export const isGatewayKind = (kind: SecretPurposeKind): kind is GatewaySecretKind => kind.startsWith("gateway_");

export const gatewayPurpose = (
  kind: GatewaySecretKind,
  gateway: PaymentGatewayName,
  environment: GatewayEnvironment,
): SecretPurpose => ({ kind, gateway, environment });

/** A provider's `credentials_ref` holds a bearer token or an HMAC key, as its `auth_mode` says. */
export const providerPurpose = (authMode: "bearer" | "hmac"): SecretPurpose => ({
  kind: authMode === "hmac" ? "provider_hmac_key" : "provider_bearer_token",
});

export function samePurpose(a: SecretPurpose, b: SecretPurpose): boolean {
  if (a.kind !== b.kind) return false;
  if (!("gateway" in a) || !("gateway" in b)) return true;
  return a.gateway === b.gateway && a.environment === b.environment;
}

const WORDS: Record<SecretPurposeKind, string> = {
  provider_bearer_token: "a provider bearer token",
  provider_hmac_key: "a provider HMAC key",
  gateway_api_key: "API key",
  gateway_client_key: "client key",
  gateway_webhook_secret: "webhook secret",
  smtp_password: "an SMTP password",
  license_signing_key: "the license signing key",
};

/** `a gateway_b sandbox webhook secret (gateway_webhook_secret)`: read by people, with the code clients match. */
export function describePurpose(purpose: SecretPurpose): string {
  const words =
    "gateway" in purpose ? `a ${purpose.gateway} ${purpose.environment} ${WORDS[purpose.kind]}` : WORDS[purpose.kind];
  return `${words} (${purpose.kind})`;
}

/**
 * The one name of a secret reference: lower case, every character other than a-z and 0-9 as `_`.
 * `SECRET_<REF>` upper-cases the reference the same way, so `GATEWAY_B_LIVE_WEBHOOK_SECRET`,
 * `gateway-b-live-webhook-secret` and `gateway_b.live.webhook_secret` are all
 * `gateway_b_live_webhook_secret`: one value, one purpose, one audit target.
 */
export function canonicalSecretRef(ref: string): string {
  return ref.toLowerCase().replace(/[^a-z0-9]/g, "_");
}

const WELL_KNOWN = /^(gateway_[ab])_(sandbox|live)_(api_key|client_key|webhook_secret)$/;

/**
 * The references the gateways' environment variables fill (`GATEWAY_B_SANDBOX_WEBHOOK_SECRET` is
 * `gateway_b_sandbox_webhook_secret`, however spelled) have the purpose their name says, whatever anyone declares.
 */
export function fixedPurposeOf(ref: string): SecretPurpose | undefined {
  const match = WELL_KNOWN.exec(canonicalSecretRef(ref));
  if (!match) return undefined;
  const [, gateway, environment, secret] = match;
  return gatewayPurpose(
    `gateway_${secret}` as GatewaySecretKind,
    gateway as PaymentGatewayName,
    environment as GatewayEnvironment,
  );
}

/** One place a secret reference is used, for the refusal to point at. */
export interface SecretUse {
  /** JSON pointer of the field naming the reference, e.g. `/fulfillment_config/credentials_ref`. */
  readonly path: string;
  readonly ref: string;
  readonly purpose: SecretPurpose;
}

export function purposeMismatchMessage(ref: string, declared: SecretPurpose, wanted: SecretPurpose): string {
  return `${ref} is ${describePurpose(declared)} and cannot be used as ${describePurpose(wanted)}`;
}

/** A purpose as the API spells it: `purpose` (the kind), and for a gateway's secret its `gateway` and `environment`. */
export interface PurposeFields {
  readonly purpose?: SecretPurposeKind | undefined;
  readonly gateway?: PaymentGatewayName | undefined;
  readonly environment?: GatewayEnvironment | undefined;
}

/** The purpose the fields name; undefined when none is given. */
export function purposeFromFields(fields: PurposeFields): SecretPurpose | undefined {
  const { purpose, gateway, environment } = fields;
  const errors: FieldError[] = [];
  if (purpose === undefined) {
    if (gateway !== undefined || environment !== undefined) {
      errors.push({ path: "/purpose", code: "REQUIRED", message: "is required with gateway and environment" });
    }
  } else if (isGatewayKind(purpose)) {
    if (gateway === undefined)
      errors.push({ path: "/gateway", code: "REQUIRED", message: `is required for ${purpose}` });
    if (environment === undefined) {
      errors.push({ path: "/environment", code: "REQUIRED", message: `is required for ${purpose}` });
    }
    if (gateway !== undefined && environment !== undefined && errors.length === 0) {
      return gatewayPurpose(purpose, gateway, environment);
    }
  } else {
    for (const field of ["gateway", "environment"] as const) {
      if (fields[field] !== undefined) {
        errors.push({ path: `/${field}`, code: "NOT_ALLOWED", message: `only a gateway's secret has a ${field}` });
      }
    }
    if (errors.length === 0) return { kind: purpose };
  }
  if (errors.length > 0) throw new ValidationFailed(errors, "The secret's purpose is not valid.");
  return undefined;
}

/** The API's spelling of a purpose (every field present, null where it does not apply). */
export function purposeToFields(purpose: SecretPurpose | undefined) {
  return {
    purpose: purpose?.kind ?? null,
    gateway: purpose && "gateway" in purpose ? purpose.gateway : null,
    environment: purpose && "gateway" in purpose ? purpose.environment : null,
  };
}
