import type { Schemas } from "./api.ts";

/** Why a connection test failed, in words, for the provider and the gateways alike. */
export const CONNECTION_FAILURES: Readonly<Record<Schemas["ConnectionFailureReason"], string>> = {
  bad_credentials: "the credentials were refused",
  unreachable: "the address could not be reached",
  timeout: "no answer in time",
  not_configured: "not configured: no key or secret is set",
  unexpected_response: "the answer was not what we expected",
};
