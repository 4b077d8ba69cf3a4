import { beforeAll, expect, test } from "bun:test";
import pino from "pino";
import { openDatabase } from "../../adapters/postgres/database.ts";
import { createPostgresOrderRepository } from "../../adapters/postgres/order-repository.ts";
import { freePort } from "../../scripts/lib/postgres-cluster.ts";
import { createTestMarketplace } from "../support/app.ts";
import { hasRealPostgres, useTestDatabase } from "../support/database.ts";
import {
  createProduct,
  eventually,
  FAST_JOBS,
  posProductFor,
  registerCustomer,
  SANDBOX,
  useE2e,
} from "../support/e2e.ts";
import { SIM_TOKEN } from "../support/provider-sim.ts";
import { signStripeWebhook } from "../support/webhook-signers.ts";

const ORDERS = 200;
const db = useTestDatabase();
const e2e = useE2e(db);
const second: { close?: () => Promise<void>; url?: string; marketplace?: ReturnType<typeof createTestMarketplace> } =
  {};

beforeAll(async () => {
  if (!hasRealPostgres) return;
  const pool = await openDatabase({ url: db.current.url, dataDir: "", poolMax: 10 });
  const marketplace = createTestMarketplace(
    pool.sql,
    {},
    {
      env: { ...SANDBOX, ...FAST_JOBS, SECRET_SIM_TOKEN: SIM_TOKEN },
      logger: pino({ level: "silent" }),
    },
  );
  const port = await freePort();
  const server = Bun.serve({ port, hostname: "127.0.0.1", fetch: marketplace.app.fetch });
  marketplace.worker.start();
  second.marketplace = marketplace;
  second.url = `http://127.0.0.1:${port}`;
  second.close = async () => {
    await marketplace.worker.stop({ timeoutMs: 2000 });
    server.stop(true);
    await marketplace.close();
    await pool.close(1);
  };
});
db.onTeardown(() => second.close?.());

test.skipIf(!hasRealPostgres)(
  `two instances turn ${ORDERS} paid orders into ${ORDERS} active fulfillments and ${ORDERS} tenants`,
  async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const priced = await e2e.marketplace.deps.calculateCheckout({
      items: [{ product_id: product.id, variant: "monthly" }],
    });
    const orders = createPostgresOrderRepository(db.current.sql);
    const ids: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const { order } = await orders.create({
        customer_id: customer.id,
        payment_gateway: "gateway_b",
        gateway_environment: "sandbox",
        tax_behavior: "exclusive",
        metadata: "{}",
        totals: priced,
      });
      ids.push(order.id);
    }
    const webhook = async (orderId: string, i: number) => {
      const body = JSON.stringify({
        id: `evt_two_instances_${orderId}`,
        object: "event",
        type: "checkout.session.completed",
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: `cs_${i}`,
            object: "checkout.session",
            client_reference_id: orderId,
            metadata: { order_id: orderId },
            payment_status: "paid",
            amount_total: priced.due_today,
            currency: "usd",
            payment_intent: `pi_two_${orderId}`,
          },
        },
      });
      const target = i % 2 === 0 ? e2e.url : (second.url ?? e2e.url);
      const response = await fetch(`${target}/api/webhooks/gateway_b`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "stripe-signature": await signStripeWebhook(body, SANDBOX.GATEWAY_B_SANDBOX_WEBHOOK_SECRET, Date.now()),
        },
        body,
      });
      expect(response.status).toBe(200);
    };
    for (let start = 0; start < ORDERS; start += 20) {
      await Promise.all(ids.slice(start, start + 20).map((id, offset) => webhook(id, start + offset)));
    }
    await eventually(
      async () => {
        const [row] = await db.current.sql<{ n: number }[]>`
      select count(*)::int as n from fulfillment_records where order_id in ${db.current.sql(ids)} and status = 'active'`;
        return (row?.n ?? 0) === ORDERS;
      },
      30_000,
      `${ORDERS} active fulfillments`,
    );
    const [records] = await db.current.sql<{ n: number }[]>`
    select count(*)::int as n from fulfillment_records where order_id in ${db.current.sql(ids)}`;
    expect(records?.n).toBe(ORDERS);
    const tenants = new Map<string, number>();
    let cursor: string | null = null;
    do {
      const response = await fetch(
        `${e2e.sim.url}/api/marketplace/admin/tenants?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
        {
          headers: { authorization: `Bearer ${SIM_TOKEN}` },
        },
      );
      const page = (await response.json()) as { items: { order_id: string }[]; next_cursor: string | null };
      for (const tenant of page.items) tenants.set(tenant.order_id, (tenants.get(tenant.order_id) ?? 0) + 1);
      cursor = page.next_cursor;
    } while (cursor);
    const ours = ids.map((id) => tenants.get(id) ?? 0);
    expect(ours.filter((n) => n === 1)).toHaveLength(ORDERS);
    const [jobs] = await db.current.sql<{ runs: number }[]>`
    select coalesce(sum(attempts), 0)::int as runs from jobs where kind = 'fulfill' and payload->>'fulfillment_id' in (
      select id::text from fulfillment_records where order_id in ${db.current.sql(ids)})`;
    expect(jobs?.runs).toBe(ORDERS);
  },
  60_000,
);
