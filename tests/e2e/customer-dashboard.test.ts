import { beforeAll, describe, expect, test } from "bun:test";
import { createDownloadTokens } from "../../adapters/security/download-tokens.ts";
import { aLicenseProduct } from "../support/builders/products.ts";
import { TEST_JWT_SECRET } from "../support/credentials.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentsOf,
  http,
  posProductFor,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

type Customer = { token: string; id: string };
let owner: Customer;
let stranger: Customer;
let licenseOrder = "";
let saasOrder = "";
let waitingOrder = "";
let licenseItem: { next_action: { url: string; license_key: string } } | undefined;

async function dashboardOf(customer: Customer) {
  return (await http(e2e.url, "GET", "/api/dashboard", { token: customer.token })).body.items as {
    order_id: string;
    status: string;
    fulfillment_id: string;
    next_action: { kind: string; url: string; license_key: string; activations_used: number; max_activations: number };
  }[];
}

beforeAll(async () => {
  owner = await registerCustomer(e2e);
  stranger = await registerCustomer(e2e);
  const license = await createProduct(
    e2e,
    aLicenseProduct({
      default_release_version: "2.0.0",
      fulfillment_config: {
        license_type: "commercial",
        artifact_source: `${e2e.sim.url}/artifacts/app/`,
        max_activations: 2,
      },
    }),
  );
  const saas = await createProduct(e2e, posProductFor(e2e));
  const dedicated = await createProduct(e2e, {
    name: "Dedicated",
    slug: `dedicated-${crypto.randomUUID().slice(0, 8)}`,
    status: "published",
    delivery_model: "saas_singletenant",
    fulfillment_driver: "singletenant_provisioning",
    is_recurring: true,
    price_monthly: 5000,
    fulfillment_config: { server_profile: "s", resource_limits_profile: "r", domain_strategy: "customer_domain" },
  });
  licenseOrder = (await buyAndPay(e2e, owner, [{ product_id: license.id, variant: "regular" }], "gateway_a")).orderId;
  saasOrder = (await buyAndPay(e2e, owner, [{ product_id: saas.id, variant: "monthly" }], "gateway_b")).orderId;
  waitingOrder = (await buyAndPay(e2e, owner, [{ product_id: dedicated.id, variant: "monthly" }], "gateway_a")).orderId;
  await eventually(
    async () => {
      const items = await dashboardOf(owner);
      return items.length === 3 && items.every((i) => !["pending_payment", "queued", "processing"].includes(i.status));
    },
    5000,
    "three settled items",
  );
  licenseItem = (await dashboardOf(owner)).find((i) => i.order_id === licenseOrder) as never;
}, 30_000);

describe("dashboard", () => {
  test("every purchased item shows its delivery type, status and next action", async () => {
    const items = await dashboardOf(owner);
    const byOrder = Object.fromEntries(items.map((i) => [i.order_id, i]));
    expect(byOrder[saasOrder]).toMatchObject({ status: "active", next_action: { kind: "open_workspace" } });
    expect(byOrder[licenseOrder]).toMatchObject({
      status: "active",
      next_action: { kind: "download", activations_used: 0, max_activations: 2 },
    });
    expect(byOrder[waitingOrder]).toMatchObject({
      status: "awaiting_customer",
      next_action: { kind: "provide_domain" },
    });
  });

  test("orders, licenses, subscriptions and installations list the customer's own", async () => {
    const orders = await http(e2e.url, "GET", "/api/orders", { token: owner.token });
    expect(orders.body.items.map((o: { id: string }) => o.id).sort()).toEqual(
      [licenseOrder, saasOrder, waitingOrder].sort(),
    );
    const order = await http(e2e.url, "GET", `/api/orders/${saasOrder}`, { token: owner.token });
    expect(order.body.items[0].fulfillment).toMatchObject({ status: "active", driver: "multitenant_saas" });
    const licenses = await http(e2e.url, "GET", "/api/licenses", { token: owner.token });
    expect(licenses.body.items).toHaveLength(1);
    expect(licenses.body.items[0]).toMatchObject({ license_type: "regular", max_activations: 2, activations: 0 });
    const subscriptions = await http(e2e.url, "GET", "/api/subscriptions", { token: owner.token });
    expect(subscriptions.body.items).toHaveLength(2);
    const installations = await http(e2e.url, "GET", "/api/installations", { token: owner.token });
    expect(installations.body.items[0]).toMatchObject({ status: "awaiting_domain", domain: null });
  });
});

describe("licenses", () => {
  test("a key verifies offline with WebCrypto and the served public key, no project code involved", async () => {
    const served = await http(e2e.url, "GET", "/api/licenses/public-key");
    const pem: string = served.body.public_key;
    const der = Uint8Array.from(atob(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "")), (c) => c.charCodeAt(0));
    const key = await crypto.subtle.importKey("spki", der, { name: "Ed25519" }, false, ["verify"]);
    const [prefix, claims, signature] = (licenseItem?.next_action.license_key ?? "").split(".");
    const fromBase64url = (s: string) =>
      Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const message = new TextEncoder().encode(`${prefix}.${claims}`);
    expect(await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64url(signature ?? ""), message)).toBeTrue();
    const tampered = new TextEncoder().encode(`${prefix}.${claims}x`);
    expect(await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64url(signature ?? ""), tampered)).toBeFalse();
    expect(JSON.parse(new TextDecoder().decode(fromBase64url(claims ?? "")))).toMatchObject({ max: 2, typ: "regular" });
  });

  test("activation honours max_activations and counts a repeated fingerprint once", async () => {
    const key = licenseItem?.next_action.license_key ?? "";
    const activate = (fingerprint: string) =>
      http(e2e.url, "POST", "/api/licenses/activate", { body: { key, fingerprint } });
    expect((await activate("machine-1")).body).toMatchObject({ activated: true, new_activation: true, activations: 1 });
    expect((await activate("machine-1")).body).toMatchObject({
      activated: true,
      new_activation: false,
      activations: 1,
    });
    expect((await activate("machine-2")).body).toMatchObject({ activations: 2 });
    const third = await activate("machine-3");
    expect(third.status).toBe(409);
    expect(third.body.code).toBe("ACTIVATION_LIMIT_REACHED");
    const validated = await http(e2e.url, "POST", "/api/licenses/validate", { body: { key } });
    expect(validated.body).toMatchObject({
      valid: true,
      license_type: "regular",
      activations: 2,
      max_activations: 2,
      expires_at: null,
    });
    // One character of the signature changed (mid-signature, so all six bits count): never the same key.
    const at = key.length - 10;
    const forgedKey = `${key.slice(0, at)}${key[at] === "A" ? "B" : "A"}${key.slice(at + 1)}`;
    const forged = await http(e2e.url, "POST", "/api/licenses/validate", { body: { key: forgedKey } });
    expect(forged.body).toMatchObject({ valid: false });
    const unknown = await http(e2e.url, "POST", "/api/licenses/activate", {
      body: { key: "MKT1.e30.AAAA", fingerprint: "x" },
    });
    expect(unknown.status).toBe(404);
  });
});

describe("downloads", () => {
  const tokenOf = (url: string) => url.split("/api/downloads/")[1] ?? "";
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")) as { e: string; c: string };
  const follow = (token: string) => fetch(`${e2e.url}/api/downloads/${token}`, { redirect: "manual" });
  const signed = (entitlement: string, customer: string, now = Date.now()) =>
    createDownloadTokens({ secret: TEST_JWT_SECRET, ttlSeconds: 60, now: () => now }).issue(entitlement, customer);

  test("the signed link alone, with no Authorization header, streams the release artifact from the marketplace", async () => {
    const response = await follow(tokenOf(licenseItem?.next_action.url ?? ""));
    expect(response.status).toBe(200);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toBe("app 2.0.0 release archive\n");
  });

  test("a tampered link is a 403 and an expired one a 410, as problem+json", async () => {
    const token = tokenOf(licenseItem?.next_action.url ?? "");
    const [body, signature] = token.split(".");
    const claims = claimsOf(token);
    const longer = Buffer.from(JSON.stringify({ ...claims, x: Date.now() / 1000 + 86_400 })).toString("base64url");
    for (const tampered of [`${longer}.${signature}`, `${body}.${"0".repeat(64)}`, "garbage"]) {
      const refused = await follow(tampered);
      expect([refused.status, refused.headers.get("content-type")]).toEqual([403, "application/problem+json"]);
      expect(await refused.json()).toMatchObject({ code: "DOWNLOAD_LINK_INVALID" });
    }
    // Signed with the real key an hour ago: only its age is wrong.
    const expired = await follow(await signed(claims.e, claims.c, Date.now() - 3_600_000));
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({ code: "DOWNLOAD_LINK_EXPIRED" });
  });

  test("a link is bound to its entitlement's customer: re-signed for another it is refused", async () => {
    const claims = claimsOf(tokenOf(licenseItem?.next_action.url ?? ""));
    const rebound = await follow(await signed(claims.e, stranger.id));
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toMatchObject({ code: "DOWNLOAD_LINK_INVALID" });
  });

  test("revoking the entitlement stops its live links with a 410", async () => {
    const token = tokenOf(licenseItem?.next_action.url ?? "");
    const { e: entitlement } = claimsOf(token);
    await db.current.sql`update download_entitlements set revoked_at = now() where id = ${entitlement}`;
    try {
      const revoked = await follow(token);
      expect(revoked.status).toBe(410);
      expect(await revoked.json()).toMatchObject({ code: "DOWNLOAD_REVOKED" });
    } finally {
      await db.current.sql`update download_entitlements set revoked_at = null where id = ${entitlement}`;
    }
  });
});

describe("cross-customer isolation", () => {
  // Download links are left out on purpose: the signed link is the credential, whoever holds it.
  test("every customer route and action on another customer's resource is a 404 without data", async () => {
    const [saasRecord] = await fulfillmentsOf(db, saasOrder);
    const [waiting] = await fulfillmentsOf(db, waitingOrder);
    const cases: [string, string, object | undefined][] = [
      ["GET", `/api/orders/${saasOrder}`, undefined],
      ["GET", `/api/fulfillments/${saasRecord?.id}`, undefined],
      ["POST", `/api/fulfillments/${saasRecord?.id}/retry`, undefined],
      ["POST", `/api/fulfillments/${waiting?.id}/customer-input`, { domain: "stolen.example.com" }],
    ];
    for (const [method, path, body] of cases) {
      const response = await http(e2e.url, method, path, { token: stranger.token, ...(body ? { body } : {}) });
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(JSON.stringify(response.body)).not.toContain(owner.id);
    }
    for (const path of [
      "/api/dashboard",
      "/api/orders",
      "/api/licenses",
      "/api/subscriptions",
      "/api/installations",
      "/api/notifications",
    ]) {
      const response = await http(e2e.url, "GET", path, { token: stranger.token });
      expect([path, response.status, response.body.items]).toEqual([path, 200, []]);
    }
    const [still] = await fulfillmentsOf(db, waitingOrder);
    expect(still?.status).toBe("awaiting_customer");
  });
});
