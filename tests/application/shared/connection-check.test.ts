import { describe, expect, test } from "bun:test";
import { connectionFailure } from "../../../application/shared/connection-check.ts";
import {
  CredentialsNotFound,
  UpstreamBadResponse,
  UpstreamRejected,
  UpstreamServerError,
  UpstreamTimeout,
  UpstreamUnreachable,
} from "../../../application/shared/errors.ts";

const WORDING = {
  notConfigured: "no secret",
  badCredentials: (status: number) => `refused ${status}`,
  unreachable: "unreachable",
  timeout: "slow",
  unexpectedResponse: (status: number | undefined) => `odd ${status ?? "body"}`,
};

describe("connectionFailure", () => {
  test.each([
    [
      "CredentialsNotFound('provider', 'pos_token')",
      new CredentialsNotFound("provider", "pos_token"),
      "not_configured",
      "no secret",
    ],
    [
      "UpstreamRejected('provider', 401, 'UNAUTHORIZED', 'sk_live_echoed')",
      new UpstreamRejected("provider", 401, "UNAUTHORIZED", "sk_live_echoed"),
      "bad_credentials",
      "refused 401",
    ],
    [
      "UpstreamRejected('provider', 403, undefined, undefined)",
      new UpstreamRejected("provider", 403, undefined, undefined),
      "bad_credentials",
      "refused 403",
    ],
    [
      "UpstreamUnreachable('provider', 'connection refused (ECONNREFUSED)')",
      new UpstreamUnreachable("provider", "connection refused (ECONNREFUSED)"),
      "unreachable",
      "unreachable",
    ],
    ["UpstreamTimeout('provider', 5)", new UpstreamTimeout("provider", 5), "timeout", "slow"],
    [
      "UpstreamRejected('provider', 404, 'NOPE', 'secret detail')",
      new UpstreamRejected("provider", 404, "NOPE", "secret detail"),
      "unexpected_response",
      "odd 404",
    ],
    [
      "UpstreamServerError('provider', 502)",
      new UpstreamServerError("provider", 502),
      "unexpected_response",
      "odd body",
    ],
    [
      "UpstreamBadResponse('provider', 'not JSON')",
      new UpstreamBadResponse("provider", "not JSON"),
      "unexpected_response",
      "odd body",
    ],
    [
      "TypeError('event types are not a list')",
      new TypeError("event types are not a list"),
      "unexpected_response",
      "odd body",
    ],
  ])("%s is classified in the caller's words only", (_, error, reason, message) => {
    expect(connectionFailure(error, WORDING)).toEqual({ reason, message } as never);
  });
});
