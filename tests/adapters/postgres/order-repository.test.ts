import { describe, expect, test } from "bun:test";
import { createPostgresOrderRepository } from "../../../adapters/postgres/order-repository.ts";
import { ORDER_STATUSES, type OrderStatus, sourcesFor } from "../../../domain/orders/order-status.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

async function anOrder(status: OrderStatus) {
  const [user] = await db.current.sql<{ id: string }[]>`
    insert into users (email, name, role, password_hash)
    values (${`orders-${crypto.randomUUID()}@example.test`}, 'O', 'customer', 'x') returning id`;
  const [order] = await db.current.sql<{ id: string }[]>`
    insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway, gateway_environment, metadata)
    values (${user?.id ?? ""}, ${status}, 'EUR', 4900, 4900, 4900, 'gateway_b', 'sandbox', '{}') returning id`;
  return order?.id ?? "";
}

describe("PostgresOrderRepository.markCheckoutFailed", () => {
  test("moves exactly the orders the state machine lets fail their checkout, and no other", async () => {
    const repository = createPostgresOrderRepository(db.current.sql);
    for (const status of ORDER_STATUSES) {
      const id = await anOrder(status);
      await repository.markCheckoutFailed(id, "the gateway is down");
      const found = await repository.find(id);
      const failed = sourcesFor("checkout_failed").includes(status);
      expect({ status, now: found?.order.status }).toEqual({ status, now: failed ? "checkout_failed" : status });
      expect(found?.order.flagged_reason).toBe(failed ? "the gateway is down" : null);
    }
  });
});

describe("PostgresOrderRepository.attachCheckout", () => {
  test("records the session whatever the status, and says whether the order had expired meanwhile", async () => {
    const repository = createPostgresOrderRepository(db.current.sql);
    for (const status of ["pending_payment", "expired"] as const) {
      const id = await anOrder(status);
      const session = { session_id: `cs_${status}`, url: `https://pay.test/${status}` };
      expect(await repository.attachCheckout(id, session)).toEqual({ expired: status === "expired" });
      expect((await repository.find(id))?.order).toMatchObject({ checkout_session_id: session.session_id, status });
    }
  });
});

describe("PostgresOrderRepository.create", () => {
  test("for a customer gone meanwhile (a guest record folded into an account) is CUSTOMER_NOT_FOUND, not a database error", async () => {
    const repository = createPostgresOrderRepository(db.current.sql);
    const totals = {
      currency: "EUR",
      subtotal: 0,
      total: 0,
      due_today: 0,
      items: [],
      discount_total: 0,
      discount: null,
    };
    const attempt = repository.create({
      customer_id: crypto.randomUUID(),
      payment_gateway: "gateway_b",
      gateway_environment: "sandbox",
      tax_behavior: "exclusive",
      metadata: "{}",
      totals,
    });
    await expect(attempt).rejects.toMatchObject({ code: "CUSTOMER_NOT_FOUND" });
  });
});
