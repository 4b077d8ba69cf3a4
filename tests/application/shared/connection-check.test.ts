import { describe, expect, test } from "bun:test";
import { connectionFailure } from "../../../application/shared/connection-check.ts";
import {
  CredentialsNotFound,
  UpstreamBadResponse,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../application/shared/upstream-errors.ts";

const WORDING = {
  notConfigured: "no secret",
  badCredentials: (status: number) => `refused ${status}`,
  unreachable: "unreachable",
  timeout: "slow",
  unexpectedResponse: (status: number | undefined) => `odd ${status ?? "body"}`,
};

describe("connectionFailure", () => {
  test.each([
    [new CredentialsNotFound("provider", "pos_token"), "not_configured", "no secret"],
    [new UpstreamRejected("provider", 401, "UNAUTHORIZED", "sk_live_echoed"), "bad_credentials", "refused 401"],
    [new UpstreamRejected("provider", 403, undefined, undefined), "bad_credentials", "refused 403"],
    [new UpstreamUnreachable("provider", "connection refused (ECONNREFUSED)"), "unreachable", "unreachable"],
    [new UpstreamTimeout("provider", 5), "timeout", "slow"],
    [new UpstreamRejected("provider", 404, "NOPE", "secret detail"), "unexpected_response", "odd 404"],
    [new UpstreamServerError("provider", 502), "unexpected_response", "odd body"],
    [new UpstreamBadResponse("provider", "not JSON"), "unexpected_response", "odd body"],
    [new TypeError("event types are not a list"), "unexpected_response", "odd body"],
  ])("%p is %s, in the caller's words only", (error, reason, message) => {
    expect(connectionFailure(error, WORDING)).toEqual({ reason, message } as never);
  });
});
