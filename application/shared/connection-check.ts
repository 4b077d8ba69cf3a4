import { GatewayHostNotAllowed } from "../../domain/payments/errors.ts";
import { SecretPurposeMismatch } from "../../domain/secrets/errors.ts";
import {
  CredentialsNotFound,
  UpstreamRejected,
  UpstreamTimeout,
  UpstreamUnreachable,
  UpstreamUrlNotAllowed,
} from "./errors.ts";

/** Why a "test connection" action failed, as every such action reports it. */
export type ConnectionFailureReason =
  | "bad_credentials"
  | "unreachable"
  | "timeout"
  | "not_configured"
  | "unexpected_response";

export interface ConnectionFailure {
  readonly reason: ConnectionFailureReason;
  readonly message: string;
}

/** The caller's own sentences for each reason; `status` is the HTTP status when there was one. */
export interface ConnectionFailureWording {
  readonly notConfigured: string;
  readonly badCredentials: (status: number) => string;
  readonly unreachable: string;
  readonly timeout: string;
  readonly unexpectedResponse: (status: number | undefined) => string;
}

/**
 * Classifies what a connection check threw. The message is always the caller's fixed wording:
 * neither a credential nor anything the far end wrote (which may echo one) reaches an admin screen.
 */
export function connectionFailure(error: unknown, wording: ConnectionFailureWording): ConnectionFailure {
  // An address the marketplace does not call is the admin's input to fix: a 422, not a report.
  if (error instanceof UpstreamUrlNotAllowed) throw error;
  // So is a secret named for another purpose, or a live key bound for a host that is not the gateway's.
  if (error instanceof SecretPurposeMismatch || error instanceof GatewayHostNotAllowed) throw error;
  if (error instanceof CredentialsNotFound) return { reason: "not_configured", message: wording.notConfigured };
  if (error instanceof UpstreamRejected && (error.status === 401 || error.status === 403)) {
    return { reason: "bad_credentials", message: wording.badCredentials(error.status) };
  }
  if (error instanceof UpstreamUnreachable) return { reason: "unreachable", message: wording.unreachable };
  if (error instanceof UpstreamTimeout) return { reason: "timeout", message: wording.timeout };
  const status = error instanceof UpstreamRejected ? error.status : undefined;
  return { reason: "unexpected_response", message: wording.unexpectedResponse(status) };
}
