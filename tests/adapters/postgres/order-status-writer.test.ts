import { describe, expect, test } from "bun:test";
import { createPostgresOrderStatusWriter } from "../../../adapters/postgres/order-status-writer.ts";
import { ORDER_STATUSES, type OrderStatus, sourcesFor } from "../../../domain/orders/order-status.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();
const NOW = new Date("2026-03-01T12:00:00.000Z");
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

async function anOrder(status: OrderStatus, placed: Date) {
  const [user] = await db.current.sql<{ id: string }[]>`
    insert into users (email, name, role, password_hash)
    values (${`ledger-${crypto.randomUUID()}@example.test`}, 'O', 'customer', 'x') returning id`;
  const [order] = await db.current.sql<{ id: string }[]>`
    insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway,
                        gateway_environment, metadata, created_at)
    values (${user?.id ?? ""}, ${status}, 'EUR', 4900, 4900, 4900, 'gateway_b', 'sandbox', '{}', ${placed})
    returning id`;
  return order?.id ?? "";
}

const statusOf = async (id: string) =>
  (await db.current.sql<{ status: string }[]>`select status from orders where id = ${id}`)[0]?.status;

describe("PostgresOrderLedger.expireUnpaid", () => {
  test("expires exactly the unpaid orders placed before the cutoff, oldest first, in batches", async () => {
    const ledger = createPostgresOrderStatusWriter(db.current.sql);
    const old: Record<string, OrderStatus> = {};
    for (const status of ORDER_STATUSES) old[await anOrder(status, minutesAgo(90))] = status;
    const recent = await anOrder("pending_payment", minutesAgo(10));
    const oldest = await anOrder("pending_payment", minutesAgo(120));

    const first = await ledger.expireUnpaid(minutesAgo(60), 1);
    expect(first.map((order) => [order.id, order.status])).toEqual([[oldest, "expired"]]);
    const rest = await ledger.expireUnpaid(minutesAgo(60), 100);
    expect(rest.map((order) => old[order.id]).sort()).toEqual([...sourcesFor("expired")].sort());
    for (const [id, status] of Object.entries(old)) {
      expect({ status, now: await statusOf(id) }).toEqual({
        status,
        now: sourcesFor("expired").includes(status) ? "expired" : status,
      });
    }
    expect(await statusOf(recent)).toBe("pending_payment");
    expect(await ledger.expireUnpaid(minutesAgo(60), 100)).toEqual([]);
  });

  test("an order locked by a payment being recorded is skipped, not waited for", async () => {
    const id = await anOrder("pending_payment", minutesAgo(90));
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const payment = db.current.sql.begin(async (tx) => {
      await createPostgresOrderStatusWriter(tx).find(id);
      locked();
      await held;
    });
    await isLocked;
    expect(await createPostgresOrderStatusWriter(db.current.sql).expireUnpaid(minutesAgo(60), 100)).toEqual([]);
    release();
    await payment;
    expect(
      (await createPostgresOrderStatusWriter(db.current.sql).expireUnpaid(minutesAgo(60), 100)).map((o) => o.id),
    ).toEqual([id]);
  });

  test("an order holding a limited code's redemption expires after the hold; one with an unlimited code waits", async () => {
    const ledger = createPostgresOrderStatusWriter(db.current.sql);
    const withCode = async (maxRedemptions: number | null) => {
      const id = await anOrder("pending_payment", minutesAgo(90));
      const [discount] = await db.current.sql<{ id: string }[]>`
        insert into discounts (code, type, amount, duration, max_redemptions)
        values (${`HOLD${crypto.randomUUID().slice(0, 8)}`}, 'percent', 1000, 'once', ${maxRedemptions}) returning id`;
      await db.current.sql`
        update orders set discount_id = ${discount?.id ?? null}, discount_code = 'HOLD' where id = ${id}`;
      return id;
    };
    const limited = await withCode(5);
    const unlimited = await withCode(null);
    const expired = await ledger.expireUnpaid(minutesAgo(24 * 60), 100, minutesAgo(60));
    expect(expired.map((order) => order.id)).toEqual([limited]);
    expect(await statusOf(unlimited)).toBe("pending_payment");
  });
});
