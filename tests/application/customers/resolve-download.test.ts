import { describe, expect, test } from "bun:test";
import { createDownloadTokens } from "../../../adapters/security/download-tokens.ts";
import type { CustomerReadModel, Entitlement } from "../../../application/customers/ports.ts";
import { makeResolveDownload } from "../../../application/customers/resolve-download.ts";

const anEntitlement = (overrides: Partial<Entitlement> = {}): Entitlement => ({
  id: "ent-1",
  customer_id: "cus-1",
  artifact_source: "https://downloads.example.com/app/",
  version: "2.0.0",
  revoked_at: null,
  license_status: "active",
  ...overrides,
});

function resolverWith(entitlement: Entitlement | undefined, now = () => Date.now()) {
  const tokens = createDownloadTokens({ secret: "s".repeat(32), ttlSeconds: 60, now });
  const readModel = { entitlement: async (id: string) => (id === entitlement?.id ? entitlement : undefined) };
  const downloads = { link: async () => "", verify: tokens.verify };
  return {
    resolve: makeResolveDownload({ readModel: readModel as unknown as CustomerReadModel, downloads }),
    issue: tokens.issue,
  };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code: string; category: string }) => [error.code, error.category],
  );

describe("resolving a signed download link", () => {
  test("a valid link resolves to the artifact of the entitlement's release", async () => {
    const { resolve, issue } = resolverWith(anEntitlement());
    expect(await resolve(await issue("ent-1", "cus-1"))).toBe("https://downloads.example.com/app/2.0.0");
  });

  test("tampered, re-bound, expired, revoked and suspended links are refused with their own code", async () => {
    let now = Date.now();
    const { resolve, issue } = resolverWith(anEntitlement(), () => now);
    const token = await issue("ent-1", "cus-1");
    expect(await refusal(resolve(`${token}0`))).toEqual(["DOWNLOAD_LINK_INVALID", "forbidden"]);
    expect(await refusal(resolve(await issue("ent-1", "cus-2")))).toEqual(["DOWNLOAD_LINK_INVALID", "forbidden"]);
    now += 61_000;
    expect(await refusal(resolve(token))).toEqual(["DOWNLOAD_LINK_EXPIRED", "gone"]);

    const cases: [Entitlement | undefined, string, string][] = [
      [anEntitlement({ revoked_at: new Date() }), "DOWNLOAD_REVOKED", "gone"],
      [anEntitlement({ license_status: "revoked" }), "DOWNLOAD_REVOKED", "gone"],
      [undefined, "DOWNLOAD_REVOKED", "gone"],
      [anEntitlement({ license_status: "suspended" }), "DOWNLOAD_SUSPENDED", "forbidden"],
    ];
    for (const [entitlement, code, category] of cases) {
      const fresh = resolverWith(entitlement);
      expect(await refusal(fresh.resolve(await fresh.issue("ent-1", "cus-1")))).toEqual([code, category]);
    }
  });
});
