import { describe, expect, test } from "bun:test";
import { REDACTED, redactSummary } from "../../../application/audit/redact-summary.ts";

describe("redactSummary", () => {
  test("replaces the value of every secret-like key, at any depth and inside arrays", () => {
    expect(
      redactSummary({
        environment: "live",
        live: { base_url: "https://api.example", api_key: "abc", webhook_secret: "def", client_key: "ghi" },
        users: [{ email: "a@example.com", password: "hunter2" }],
        headers: { Authorization: "xyz", "X-Api-Key": "uvw" },
        key: "raw key material",
        private_key: "pem",
        access_token: "tok",
      }),
    ).toEqual({
      environment: "live",
      live: { base_url: "https://api.example", api_key: REDACTED, webhook_secret: REDACTED, client_key: REDACTED },
      users: [{ email: "a@example.com", password: REDACTED }],
      headers: { Authorization: REDACTED, "X-Api-Key": REDACTED },
      key: REDACTED,
      private_key: REDACTED,
      access_token: REDACTED,
    });
  });

  test("redacts a whole object held under a secret-like key", () => {
    expect(redactSummary({ credentials: { user: "u", pass: "p" } })).toEqual({ credentials: REDACTED });
  });

  test("keeps the names of stored secrets and whether they resolve: neither is the secret", () => {
    const summary = { api_key_ref: "gwa_key", credentials_ref: "pos_token", webhook_secret_configured: true };
    expect(redactSummary(summary)).toEqual(summary);
  });

  test("replaces values shaped like well-known secrets under any key", () => {
    expect(
      redactSummary({
        note: "sk_live_51H8abc",
        signing: ["whsec_abc", "plain"],
        header: "Bearer abc.def",
        jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
        pem: `-----BEGIN ${"PRIVATE"} KEY-----\nMIIE...`,
      }),
    ).toEqual({ note: REDACTED, signing: [REDACTED, "plain"], header: REDACTED, jwt: REDACTED, pem: REDACTED });
  });

  test("a secret key left empty stays empty, and other values pass through unchanged", () => {
    expect(redactSummary({ api_key: null, amount: 4900, active: true, tags: ["a"], nested: {} })).toEqual({
      api_key: null,
      amount: 4900,
      active: true,
      tags: ["a"],
      nested: {},
    });
  });

  test("leaves its input as it was", () => {
    const input = { live: { api_key: "abc" } };
    redactSummary(input);
    expect(input).toEqual({ live: { api_key: "abc" } });
  });
});
