import { expect, test } from "bun:test";
import { createDownloadTokens } from "../../../adapters/security/download-tokens.ts";

test("a token verifies until it expires, then says expired; any change makes it invalid", async () => {
  let now = Date.parse("2026-06-01T12:00:00Z");
  const tokens = createDownloadTokens({
    secret: "download-secret-0123456789-abcdefghij",
    ttlSeconds: 60,
    now: () => now,
  });
  const token = await tokens.issue("ent-1", "cus-1");
  expect(await tokens.verify(token)).toEqual({ ok: true, entitlement_id: "ent-1", customer_id: "cus-1" });
  now += 59_000;
  expect((await tokens.verify(token)).ok).toBeTrue();
  now += 2_000;
  expect(await tokens.verify(token)).toEqual({ ok: false, reason: "expired" });
  const [body, signature] = token.split(".");
  const forged = Buffer.from(JSON.stringify({ e: "ent-2", c: "cus-1", x: 9_999_999_999 })).toString("base64url");
  for (const bad of [`${forged}.${signature}`, `${body}.${"0".repeat(64)}`, `${body}`, `${token}.x`, "", "!!!.???"]) {
    expect(await tokens.verify(bad)).toEqual({ ok: false, reason: "invalid" });
  }
  const other = createDownloadTokens({
    secret: "another-secret-0123456789-abcdefghij",
    ttlSeconds: 60,
    now: () => now - 10_000,
  });
  expect(await other.verify(token)).toEqual({ ok: false, reason: "invalid" });
});
