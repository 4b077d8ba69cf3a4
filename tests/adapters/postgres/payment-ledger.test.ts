import { describe, expect, test } from "bun:test";
import { createPostgresPaymentLedger } from "../../../adapters/postgres/payment-ledger.ts";
import { useTestDatabase } from "../../support/database.ts";

const db = useTestDatabase();

async function aPayment(amount = 5000) {
  const [user] = await db.current.sql<{ id: string }[]>`
    insert into users (email, name, role, password_hash)
    values (${`ledger-${crypto.randomUUID()}@example.test`}, 'L', 'customer', 'x') returning id`;
  const [order] = await db.current.sql<{ id: string }[]>`
    insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway, gateway_environment, metadata)
    values (${user?.id ?? ""}, 'paid', 'USD', ${amount}, ${amount}, ${amount}, 'gateway_a', 'sandbox', '{}') returning id`;
  const ledger = createPostgresPaymentLedger(db.current.sql);
  const payment = await ledger.record({
    order_id: order?.id ?? "",
    gateway: "gateway_a",
    payment_id: `txn_${crypto.randomUUID().slice(0, 8)}`,
    kind: "initial",
    amount,
    tax: 0,
    currency: "USD",
    invoice_id: null,
    charge_id: null,
    payment_intent_id: null,
  });
  if (!payment) throw new Error("not recorded");
  return payment;
}

describe("PostgresPaymentLedger.applyRefund", () => {
  test("one refund reported at the same moment by the admin and by the gateway counts once", async () => {
    const payment = await aPayment();
    const report = () =>
      db.current.sql.begin((tx) =>
        createPostgresPaymentLedger(tx).applyRefund(payment.id, {
          refund_id: "adj_1",
          amount: 1000,
          cumulative: false,
        }),
      );
    await Promise.all(Array.from({ length: 8 }, report));
    const [row] = await db.current.sql`select refunded_amount::int as refunded from payments where id = ${payment.id}`;
    expect(row).toEqual({ refunded: 1000 });
    const [refunds] = await db.current.sql`select count(*)::int as n from refunds where payment_id = ${payment.id}`;
    expect(refunds).toEqual({ n: 1 });
  });

  test("an admin's refund that a running total already counts is recorded by its id and not added again", async () => {
    const payment = await aPayment();
    const ledger = createPostgresPaymentLedger(db.current.sql);
    await ledger.applyRefund(payment.id, { refund_id: null, amount: 1000, cumulative: true });
    const after = await ledger.applyRefund(payment.id, {
      refund_id: "re_1",
      amount: 1000,
      cumulative: false,
      refunded_before: 0,
    });
    expect(after.refunded_amount).toBe(1000);
    const [refunds] = await db.current.sql`select count(*)::int as n from refunds where payment_id = ${payment.id}`;
    expect(refunds).toEqual({ n: 1 });
  });

  test("two admin refunds read before either was recorded both count, at the same moment too", async () => {
    const payment = await aPayment();
    const record = (refundId: string, amount: number) =>
      db.current.sql.begin((tx) =>
        createPostgresPaymentLedger(tx).applyRefund(payment.id, {
          refund_id: refundId,
          amount,
          cumulative: false,
          refunded_before: 0,
        }),
      );
    await Promise.all([record("re_1", 1000), record("re_2", 1500)]);
    const [row] = await db.current.sql`select refunded_amount::int as refunded from payments where id = ${payment.id}`;
    expect(row).toEqual({ refunded: 2500 });
  });

  test("an admin's refund adds to what was refunded before it, even when that was a running total", async () => {
    const payment = await aPayment();
    const ledger = createPostgresPaymentLedger(db.current.sql);
    await ledger.applyRefund(payment.id, { refund_id: null, amount: 1000, cumulative: true });
    const admin = { refund_id: "re_1", amount: 1500, cumulative: false, refunded_before: 1000 };
    expect((await ledger.applyRefund(payment.id, admin)).refunded_amount).toBe(2500);
    expect((await ledger.applyRefund(payment.id, admin)).refunded_amount).toBe(2500);
    expect(
      (await ledger.applyRefund(payment.id, { refund_id: null, amount: 2000, cumulative: true })).refunded_amount,
    ).toBe(2500);
  });

  test("a running total raises the refunded amount to it, never beyond the payment", async () => {
    const payment = await aPayment(3000);
    const ledger = createPostgresPaymentLedger(db.current.sql);
    await ledger.applyRefund(payment.id, { refund_id: null, amount: 1000, cumulative: true });
    await ledger.applyRefund(payment.id, { refund_id: null, amount: 800, cumulative: true });
    expect(
      (await ledger.applyRefund(payment.id, { refund_id: null, amount: 9000, cumulative: true })).refunded_amount,
    ).toBe(3000);
  });
});
