import { describe, expect, test } from "bun:test";
import type { Entitlement } from "../../../application/customers/ports.ts";
import { makeResolveDownload } from "../../../application/customers/resolve-download.ts";
import { createInMemoryCustomerReadModel } from "../../support/fakes/in-memory-customer-read-model.ts";
import { createInMemoryDownloadLinks } from "../../support/fakes/in-memory-download-links.ts";

const anEntitlement = (overrides: Partial<Entitlement> = {}): Entitlement => ({
  id: "ent-1",
  customer_id: "cus-1",
  artifact_source: "https://downloads.example.com/app/",
  version: "2.0.0",
  revoked_at: null,
  license_status: "active",
  ...overrides,
});

function setup(entitlement?: Entitlement) {
  const readModel = createInMemoryCustomerReadModel();
  if (entitlement) readModel.addEntitlement(entitlement);
  const downloads = createInMemoryDownloadLinks();
  /** The token of a link, as the route takes it from the URL. */
  const tokenFor = async (entitlementId: string, customerId: string) =>
    (await downloads.link(entitlementId, customerId)).split("/").at(-1) ?? "";
  return { readModel, downloads, tokenFor, resolve: makeResolveDownload({ readModel, downloads }) };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code: string; category: string }) => [error.code, error.category],
  );

describe("resolving a signed download link", () => {
  test("a valid link resolves to the artifact of the entitlement's release", async () => {
    const { resolve, tokenFor } = setup(anEntitlement());
    expect(await resolve(await tokenFor("ent-1", "cus-1"))).toBe("https://downloads.example.com/app/2.0.0");
  });

  test("the version is encoded as one path segment, and without a version the source itself is the artifact", async () => {
    const versioned = setup(anEntitlement({ version: "2.0 beta/1", artifact_source: "https://dl.example.com/x//" }));
    expect(await versioned.resolve(await versioned.tokenFor("ent-1", "cus-1"))).toBe(
      "https://dl.example.com/x/2.0%20beta%2F1",
    );
    const unversioned = setup(anEntitlement({ version: null }));
    expect(await unversioned.resolve(await unversioned.tokenFor("ent-1", "cus-1"))).toBe(
      "https://downloads.example.com/app",
    );
  });

  test("a link that was never issued, or was altered, is DOWNLOAD_LINK_INVALID", async () => {
    const { resolve, tokenFor } = setup(anEntitlement());
    const token = await tokenFor("ent-1", "cus-1");
    expect(await refusal(resolve(`${token}0`))).toEqual(["DOWNLOAD_LINK_INVALID", "forbidden"]);
    expect(await refusal(resolve("invented"))).toEqual(["DOWNLOAD_LINK_INVALID", "forbidden"]);
  });

  test("a link issued to another customer than the entitlement's is DOWNLOAD_LINK_INVALID", async () => {
    const { resolve, tokenFor } = setup(anEntitlement());
    expect(await refusal(resolve(await tokenFor("ent-1", "cus-2")))).toEqual(["DOWNLOAD_LINK_INVALID", "forbidden"]);
  });

  test("an expired link is DOWNLOAD_LINK_EXPIRED", async () => {
    const { resolve, tokenFor, downloads } = setup(anEntitlement());
    const token = await tokenFor("ent-1", "cus-1");
    downloads.expire();
    expect(await refusal(resolve(token))).toEqual(["DOWNLOAD_LINK_EXPIRED", "gone"]);
  });

  test.each<[string, Entitlement | undefined, string, string]>([
    ["a revoked entitlement", anEntitlement({ revoked_at: new Date() }), "DOWNLOAD_REVOKED", "gone"],
    ["a revoked license", anEntitlement({ license_status: "revoked" }), "DOWNLOAD_REVOKED", "gone"],
    ["an entitlement deleted with its license", undefined, "DOWNLOAD_REVOKED", "gone"],
    ["a suspended license", anEntitlement({ license_status: "suspended" }), "DOWNLOAD_SUSPENDED", "forbidden"],
  ])("%s stops its links", async (_, entitlement, code, category) => {
    const { resolve, tokenFor } = setup(entitlement);
    expect(await refusal(resolve(await tokenFor("ent-1", "cus-1")))).toEqual([code, category]);
  });

  test("a live link stops working the moment its license is revoked", async () => {
    const { resolve, tokenFor, readModel } = setup(anEntitlement());
    const token = await tokenFor("ent-1", "cus-1");
    expect(await resolve(token)).toBe("https://downloads.example.com/app/2.0.0");
    readModel.addEntitlement(anEntitlement({ license_status: "revoked" }));
    expect(await refusal(resolve(token))).toEqual(["DOWNLOAD_REVOKED", "gone"]);
  });
});
