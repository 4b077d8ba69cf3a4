import { describe, expect, test } from "bun:test";
import { makeSetSecret } from "../../../application/secrets/set-secret.ts";
import { createInMemoryAuditLogWriter } from "../../support/fakes/in-memory-audit-log-writer.ts";
import { createInMemorySecretStore } from "../../support/fakes/in-memory-secret-store.ts";

const ADMIN = "0b9a3c1e-5d4f-4a6b-8c7d-9e0f1a2b3c4d";

describe("setSecret", () => {
  test("stores the value and writes one secret.set entry naming the reference, never the value", async () => {
    const audit = createInMemoryAuditLogWriter();
    const secrets = createInMemorySecretStore({}, audit);
    await makeSetSecret({ secrets })("pos_token", "s3cr3t-value", undefined, ADMIN);
    expect(await secrets.resolve("pos_token", { kind: "provider_bearer_token" })).toBe("s3cr3t-value");
    expect(audit.all()).toEqual([
      {
        actor_id: ADMIN,
        action: "secret.set",
        target_type: "secret",
        target_id: "pos_token",
        summary: { ref: "pos_token", value_set: true },
      },
    ]);
    expect(JSON.stringify(audit.all())).not.toContain("s3cr3t-value");
  });

  test("a declared purpose is stored with the value and named in the entry", async () => {
    const audit = createInMemoryAuditLogWriter();
    const secrets = createInMemorySecretStore({}, audit);
    await makeSetSecret({ secrets })("pos_hmac", "k", { kind: "provider_hmac_key" }, ADMIN);
    expect(await secrets.list()).toEqual([
      { ref: "pos_hmac", source: "stored", updated_at: null, purpose: { kind: "provider_hmac_key" } },
    ]);
    expect(audit.all()[0]?.summary).toEqual({
      ref: "pos_hmac",
      value_set: true,
      purpose: { kind: "provider_hmac_key" },
    });
  });
});
