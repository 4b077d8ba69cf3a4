import { describe, expect, test } from "bun:test";
import { aLicenseProduct } from "../support/builders/products.ts";
import { useTestDatabase } from "../support/database.ts";
import {
  adminToken,
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentReaches,
  http,
  registerCustomer,
  useE2e,
} from "../support/e2e.ts";
import { licenseOf, validate } from "../support/subscriptions.ts";

const db = useTestDatabase();
const e2e = useE2e(db);
const REGULAR = 4900;
const EXTENDED = 14900;

const paymentsOf = (orderId: string) =>
  db.current.sql<{ kind: string; amount: number }[]>`
    select kind, amount::int from payments where order_id = ${orderId} order by created_at, id`;

const licenseRow = async (id: string) => {
  const [row] = await db.current.sql<{ license_type: string; license_key: string; previous_key: string | null }[]>`
    select license_type, license_key, previous_key from licenses where id = ${id}`;
  if (!row) throw new Error("no license");
  return row;
};

async function licensed(gateway: "gateway_a" | "gateway_b", quantity = 1) {
  const customer = await registerCustomer(e2e);
  const product = await createProduct(e2e, aLicenseProduct());
  const { orderId } = await buyAndPay(
    e2e,
    customer,
    [{ product_id: product.id, variant: "regular", quantity }],
    gateway,
  );
  const { key } = await licenseOf(db, orderId);
  const [license] = await db.current.sql<{ id: string }[]>`select id from licenses where license_key = ${key}`;
  if (!license) throw new Error("no license");
  return { customer, product, orderId, key, licenseId: license.id };
}

const upgrade = (token: string, licenseId: string, key?: string) =>
  http(e2e.url, "POST", `/api/licenses/${licenseId}/upgrade`, {
    token,
    body: { variant: "extended" },
    ...(key ? { headers: { "idempotency-key": key } } : {}),
  });

describe.each(["gateway_a", "gateway_b"] as const)("a license upgrade through %s", (gateway) => {
  test("regular → extended: an order of its own for the difference per seat; paid, the same license is re-keyed and the old key works for the grace period", async () => {
    const { customer, orderId, key, licenseId } = await licensed(gateway, 2);
    const opened = await upgrade(customer.token, licenseId, `upgrade-${licenseId}`);
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      total: 2 * (EXTENDED - REGULAR),
      due_today: 2 * (EXTENDED - REGULAR),
      payment_gateway: gateway,
    });
    const upgradeOrderId = opened.body.order_id as string;
    expect(upgradeOrderId).not.toBe(orderId);
    // The same request again is the same checkout; another upgrade waits for this one's payment.
    const replayed = await upgrade(customer.token, licenseId, `upgrade-${licenseId}`);
    expect(replayed.body.order_id).toBe(upgradeOrderId);
    const second = await upgrade(customer.token, licenseId);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("LICENSE_UPGRADE_PENDING");

    const order = await http(e2e.url, "GET", `/api/orders/${upgradeOrderId}`, { token: customer.token });
    expect(order.body.metadata.upgrade_of).toEqual({ order_id: orderId, license_id: licenseId });
    expect(order.body.items).toEqual([
      expect.objectContaining({ variant: "extended", quantity: 2, unit_price: EXTENDED - REGULAR }),
    ]);

    const paid = await fetch(`${e2e.sim.url}/checkout/${gateway}/${opened.body.checkout.session_id}/pay`, {
      method: "POST",
    });
    expect(((await paid.json()) as { delivered: boolean }).delivered).toBe(true);
    await fulfillmentReaches(db, upgradeOrderId, "active", 5000);
    const row = await eventually(
      async () => {
        const current = await licenseRow(licenseId);
        return current.license_type === "extended" && current;
      },
      5000,
      "extended",
    );
    expect(row.previous_key).toBe(key);
    expect(row.license_key).not.toBe(key);
    expect([...(await paymentsOf(upgradeOrderId))]).toEqual([{ kind: "initial", amount: 2 * (EXTENDED - REGULAR) }]);
    expect([...(await paymentsOf(orderId))]).toEqual([{ kind: "initial", amount: 2 * REGULAR }]);

    // The new key says extended; the old one still validates, for the grace period only.
    expect(await validate(e2e, row.license_key)).toMatchObject({ valid: true, license_type: "extended" });
    expect(await validate(e2e, key)).toMatchObject({ valid: true, license_type: "extended" });
    await db.current
      .sql`update licenses set previous_key_valid_until = now() - interval '1 second' where id = ${licenseId}`;
    expect(await validate(e2e, key)).toMatchObject({ valid: false, reason: "replaced" });
    expect(await validate(e2e, row.license_key)).toMatchObject({ valid: true });
    const licenses = await http(e2e.url, "GET", "/api/licenses", { token: customer.token });
    expect(licenses.body.items).toEqual([expect.objectContaining({ id: licenseId, license_type: "extended" })]);

    const again = await upgrade(customer.token, licenseId);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("LICENSE_UPGRADE_ALREADY_UPGRADED");
    // The customer's dashboard lists both purchases; nothing was dead-lettered on the way.
    const dashboard = await http(e2e.url, "GET", "/api/dashboard", { token: customer.token });
    expect(dashboard.status).toBe(200);
    await Bun.sleep(300);
    expect([...(await db.current.sql`select kind, last_error from jobs where state = 'dead'`)]).toEqual([]);
  });
});

describe("a license upgrade taken back", () => {
  test("two requests at once open one upgrade; refunded in full, the license returns to regular and the extended key stops working", async () => {
    const { customer, key, licenseId } = await licensed("gateway_b");
    const answers = await Promise.all([upgrade(customer.token, licenseId), upgrade(customer.token, licenseId)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const opened = answers.find((answer) => answer.status === 201);
    const upgradeOrderId = opened?.body.order_id as string;
    await fetch(`${e2e.sim.url}/checkout/gateway_b/${opened?.body.checkout.session_id}/pay`, { method: "POST" });
    const extended = await eventually(
      async () => {
        const current = await licenseRow(licenseId);
        return current.license_type === "extended" && current;
      },
      5000,
      "extended",
    );

    const refunded = await http(e2e.url, "POST", `/api/admin/orders/${upgradeOrderId}/refund`, {
      token: await adminToken(e2e),
      body: {},
    });
    expect(refunded.status).toBe(200);
    const regular = await eventually(
      async () => {
        const current = await licenseRow(licenseId);
        return current.license_type === "regular" && current;
      },
      8000,
      "back to regular",
    );
    expect(regular.license_key).not.toBe(extended.license_key);
    expect(regular.previous_key).toBeNull();
    expect(await validate(e2e, extended.license_key)).toMatchObject({ valid: false });
    // The first key works again only if the new regular key is that same key (signed in the same second).
    expect((await validate(e2e, key)).valid).toBe(key === regular.license_key);
    expect(await validate(e2e, regular.license_key)).toMatchObject({ valid: true, license_type: "regular" });
    // Upgrading again is possible once the refunded one is closed.
    expect((await upgrade(customer.token, licenseId)).status).toBe(201);
  });
});

describe("a license upgrade is refused", () => {
  test("for another customer's license (404) and for a variant that is not extended (422)", async () => {
    const { licenseId } = await licensed("gateway_b");
    const stranger = await registerCustomer(e2e);
    const foreign = await upgrade(stranger.token, licenseId);
    expect(foreign.status).toBe(404);
    const wrong = await http(e2e.url, "POST", `/api/licenses/${licenseId}/upgrade`, {
      token: stranger.token,
      body: { variant: "regular" },
    });
    expect(wrong.status).toBe(422);
  });
});
