import { describe, expect, test } from "bun:test";
import {
  CredentialsNotFound,
  UpstreamBadResponse,
  UpstreamRateLimited,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
  UpstreamUrlNotAllowed,
} from "../../../application/shared/errors.ts";

const shape = (error: { code: string; category: string; transient: boolean }) => [
  error.code,
  error.category,
  error.transient,
];

describe("upstream errors", () => {
  test("outages are transient, refusals and missing credentials need a person", () => {
    expect(shape(new UpstreamTimeout("provider", 30))).toEqual(["PROVIDER_TIMEOUT", "upstream_timeout", true]);
    expect(shape(new UpstreamUnreachable("gateway", "reset"))).toEqual([
      "GATEWAY_UNREACHABLE",
      "upstream_failed",
      true,
    ]);
    expect(shape(new UpstreamServerError("provider", 502))).toEqual(["PROVIDER_SERVER_ERROR", "upstream_failed", true]);
    expect(shape(new UpstreamRateLimited("gateway", undefined))).toEqual([
      "GATEWAY_RATE_LIMITED",
      "upstream_failed",
      true,
    ]);
    expect(shape(new UpstreamBadResponse("provider", "no id"))).toEqual([
      "PROVIDER_BAD_RESPONSE",
      "upstream_failed",
      true,
    ]);
    expect(shape(new CredentialsNotFound("provider", "ref"))).toEqual([
      "PROVIDER_CREDENTIALS_NOT_FOUND",
      "conflict",
      false,
    ]);
  });

  test("a refusal is named by its status: not found, auth failed, or rejected", () => {
    const rejected = (status: number) => new UpstreamRejected("provider", status, undefined, undefined);
    expect(shape(rejected(404))).toEqual(["PROVIDER_NOT_FOUND", "not_found", false]);
    expect(shape(rejected(401))).toEqual(["PROVIDER_AUTH_FAILED", "upstream_failed", false]);
    expect(shape(rejected(403))).toEqual(["PROVIDER_AUTH_FAILED", "upstream_failed", false]);
    expect(shape(rejected(422))).toEqual(["PROVIDER_REJECTED", "upstream_failed", false]);
  });

  test("messages name the upstream, the status and the upstream's own code and detail", () => {
    expect(new UpstreamRejected("gateway", 409, "DUPLICATE", "already paid").message).toBe(
      "The payment gateway refused the request (HTTP 409 DUPLICATE): already paid",
    );
    expect(new UpstreamRejected("provider", 400, undefined, undefined).message).toBe(
      "The provider refused the request (HTTP 400).",
    );
  });

  test("a rate limit carries the upstream's Retry-After and says it in whole seconds", () => {
    const limited = new UpstreamRateLimited("provider", 1500);
    expect(limited.retryAfterMs).toBe(1500);
    expect(limited.message).toBe("The provider is rate limiting us; retry after 2 s.");
    expect(new UpstreamServerError("provider", 500).retryAfterMs).toBeUndefined();
  });

  test("a refused address keeps the save's code and says whether a retry may help", () => {
    const privateAddress = new UpstreamUrlNotAllowed("provider", "10.0.0.1 is private", false);
    const unresolved = new UpstreamUrlNotAllowed("provider", "no such host", true);
    expect(shape(privateAddress)).toEqual(["URL_NOT_ALLOWED", "invalid", false]);
    expect(unresolved.transient).toBe(true);
  });
});
