import { describe, expect, test } from "bun:test";
import { isApiKeyLive, isApiKeySecret, validateApiKeyRequest } from "../../../domain/identity/api-key.ts";

const NOW = new Date("2026-11-28T12:00:00Z");

describe("a new API key's request", () => {
  test("is trimmed and keeps its scopes in order", () => {
    expect(validateApiKeyRequest({ name: "  ERP ", scopes: ["orders:read", "catalog:write"] }, NOW)).toEqual({
      name: "ERP",
      scopes: ["orders:read", "catalog:write"],
      expiresAt: null,
    });
  });

  test("names every bad field: name, unknown and repeated scopes, a past or unreadable expiry", () => {
    const refusal = (() => {
      try {
        validateApiKeyRequest(
          { name: "a\u0000b", scopes: ["orders:read", "root", "orders:read"], expires_at: "2026-11-28T11:59:59Z" },
          NOW,
        );
      } catch (error) {
        return error as { errors: { path: string; code: string }[] };
      }
    })();
    expect(refusal?.errors.map((error) => [error.path, error.code])).toEqual([
      ["/name", "CONTROL_CHARACTERS"],
      ["/scopes/1", "UNKNOWN_SCOPE"],
      ["/scopes/2", "DUPLICATE_SCOPE"],
      ["/expires_at", "INVALID_EXPIRY"],
    ]);
    expect(() => validateApiKeyRequest({ name: "x", scopes: ["orders:read"], expires_at: "soon" }, NOW)).toThrow();
    expect(() => validateApiKeyRequest({ name: "x".repeat(101), scopes: ["orders:read"] }, NOW)).toThrow();
  });
});

describe("a key", () => {
  test("is live until revoked or expired", () => {
    expect(isApiKeyLive({ revoked_at: null, expires_at: null }, NOW)).toBe(true);
    expect(isApiKeyLive({ revoked_at: null, expires_at: new Date("2026-11-28T12:00:01Z") }, NOW)).toBe(true);
    expect(isApiKeyLive({ revoked_at: null, expires_at: NOW }, NOW)).toBe(false);
    expect(isApiKeyLive({ revoked_at: NOW, expires_at: null }, NOW)).toBe(false);
  });

  test("is told from a session token by its prefix", () => {
    expect(isApiKeySecret("mk_abc")).toBe(true);
    expect(isApiKeySecret("eyJhbGciOiJIUzI1NiJ9.e30.x")).toBe(false);
  });
});
