import { expect } from "bun:test";
import type { TestDatabase } from "./database.ts";
import { adminToken, type E2e, http, SANDBOX } from "./e2e.ts";
import { atSandbox } from "./subscriptions.ts";

export const GATEWAYS = ["gateway_a", "gateway_b"] as const;
export type Gateway = (typeof GATEWAYS)[number];

/**
 * Discount codes end to end: made by the admin, checked out with, paid in a sandbox, and looked up
 * in the ledger and at the gateways.
 */
export function discountCodes(e2e: E2e, db: { readonly current: TestDatabase }) {
  async function aDiscount(terms: object) {
    const code = `E2E${crypto.randomUUID().slice(0, 8)}`;
    const created = await http(e2e.url, "POST", "/api/admin/discounts", {
      token: await adminToken(e2e),
      body: { code, ...terms },
    });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, code };
  }

  const checkout = (token: string, items: object[], gateway: Gateway, code: string) =>
    http(e2e.url, "POST", "/api/checkout/create", {
      token,
      body: { items, payment_gateway: gateway, discount_code: code.toLowerCase() },
    });

  async function pay(gateway: Gateway, sessionId: string) {
    const paid = await fetch(`${e2e.sim.url}/checkout/${gateway}/${sessionId}/pay`, { method: "POST" });
    expect(await paid.json()).toMatchObject({ delivered: true, status: 200 });
  }

  const ledger = (orderId: string) =>
    db.current.sql<{ kind: string; amount: number; discount: number; payment_id: string }[]>`
      select kind, amount::int, discount::int, payment_id from payments where order_id = ${orderId} order by created_at, id`;

  const orderRow = async (orderId: string) =>
    (
      await db.current.sql<{ status: string; needs_attention: boolean; attention_reason: string | null }[]>`
        select status, needs_attention, attention_reason from orders where id = ${orderId}`
    )[0];

  /** The Paddle discounts made for a code, active or archived. */
  async function paddleDiscountsOf(discountId: string) {
    const listed = (await atSandbox(e2e, "gateway_a", "/discounts?per_page=200")) as {
      id: string;
      custom_data: { marketplace_discount_id?: string } | null;
    }[];
    return listed.filter((each) => each.custom_data?.marketplace_discount_id === discountId).map((each) => each.id);
  }

  /** Whether the gateway still offers the code's coupon or discount. */
  async function atTheGateway(gateway: Gateway, discountId: string): Promise<"offered" | "retired"> {
    if (gateway === "gateway_b") {
      const coupon = await fetch(`${e2e.sim.url}/gateway_b/v1/coupons/mkt_${discountId}`, {
        headers: { authorization: `Bearer ${SANDBOX.GATEWAY_B_SANDBOX_API_KEY}` },
      });
      return coupon.status === 404 ? "retired" : "offered";
    }
    const listed = (await atSandbox(e2e, "gateway_a", "/discounts?per_page=200&status=active")) as {
      custom_data: { marketplace_discount_id?: string } | null;
    }[];
    return listed.some((each) => each.custom_data?.marketplace_discount_id === discountId) ? "offered" : "retired";
  }

  const redemptions = async (discountId: string) =>
    (await http(e2e.url, "GET", `/api/admin/discounts/${discountId}`, { token: await adminToken(e2e) })).body
      .redemptions as number;

  return { aDiscount, checkout, pay, ledger, orderRow, paddleDiscountsOf, atTheGateway, redemptions };
}
