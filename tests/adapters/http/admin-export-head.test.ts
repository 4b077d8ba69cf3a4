import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPostgresExportReaders } from "../../../adapters/postgres/export-readers.ts";
import { createPostgresLicenseAdminReader } from "../../../adapters/postgres/license-admin.ts";
import type { Page, PageRequest } from "../../../application/shared/ports.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call } from "../../support/http.ts";

const db = useTestDatabase();
const EXPORTS = ["orders.csv", "payments.csv", "licenses.csv"] as const;

/** Pages read by each export's reader: a HEAD must read none. */
const pagesRead = { orders: 0, payments: 0, licenses: 0 };
const counted =
  <F, T>(name: keyof typeof pagesRead, read: (filter: F, page: PageRequest) => Promise<Page<T>>) =>
  (filter: F, page: PageRequest) => {
    pagesRead[name] += 1;
    return read(filter, page);
  };

let marketplace: ReturnType<typeof createTestMarketplace>;
let server: ReturnType<typeof Bun.serve>;
let admin = "";

beforeAll(async () => {
  const readers = createPostgresExportReaders(db.current.sql);
  const licenses = createPostgresLicenseAdminReader(db.current.sql);
  marketplace = createTestMarketplace(db.current.sql, {
    exportOrders: counted("orders", readers.orders),
    exportPayments: counted("payments", readers.payments),
    listAdminLicenses: counted("licenses", licenses.list),
  });
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => marketplace.app.fetch(request) });
  admin = await tokenFor("admin");
  // More than a page of orders and payments, so that each GET streams in chunks.
  const registered = await call(marketplace.app, "POST", "/api/auth/register", {
    body: { email: `head-${crypto.randomUUID()}@example.com`, password: "buyer password", name: "Buyer" },
  });
  await db.current.sql`
    with o as (
      insert into orders (customer_id, status, currency, subtotal, total, due_today, payment_gateway,
                          gateway_environment, metadata)
      select ${registered.body.user.id}, 'paid', 'USD', g, g, g, 'gateway_a', 'sandbox', '{}'
      from generate_series(1, 1500) g
      returning id, payment_gateway, total
    )
    insert into payments (order_id, gateway, payment_id, amount, tax, currency)
    select id, payment_gateway, 'pay_' || id, total, 0, 'USD' from o`;
});
afterAll(async () => {
  server.stop(true);
  await marketplace.close();
});

/** Headers that differ from one answer to the next: the date and the request's id. */
const PER_REQUEST = ["date", "x-request-id"];

/** One request over HTTP: its status, headers (but those of `PER_REQUEST`) and body as text. */
async function ask(method: "GET" | "HEAD", path: string, token?: string) {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/admin/exports/${path}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !PER_REQUEST.includes(name)));
  return { status: response.status, headers, body: await response.text() };
}

/**
 * The filename carries the second it was asked in. Bun frames a file of one short chunk (licenses,
 * here) with its length, a longer one in chunks, as a HEAD says it would.
 */
const comparable = (headers: Record<string, string>) => {
  const { "content-length": _length, "transfer-encoding": _coding, ...rest } = headers;
  return { ...rest, "content-disposition": rest["content-disposition"]?.replace(/-[0-9-]+\.csv"$/, '-*.csv"') };
};

describe("HEAD on a CSV export", () => {
  test("answers GET's status and headers with no body, and reads no page of rows", async () => {
    for (const path of EXPORTS) {
      const name = path.replace(".csv", "") as keyof typeof pagesRead;
      const before = pagesRead[name];
      const head = await ask("HEAD", path, admin);
      expect(pagesRead[name]).toBe(before);
      expect(head.status).toBe(200);
      expect(head.body).toBe("");
      const get = await ask("GET", path, admin);
      expect(pagesRead[name]).toBeGreaterThan(before);
      expect(get.body).toContain("\r\n");
      expect(comparable(head.headers)).toEqual(comparable(get.headers));
      // No length it cannot know, nor a false 0: the transfer coding a GET of many rows gets.
      expect(head.headers["content-length"]).toBeUndefined();
      expect(head.headers["transfer-encoding"]).toBe("chunked");
      if (name !== "licenses") expect(get.headers["transfer-encoding"]).toBe("chunked");
      expect(head.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(head.headers["content-disposition"]).toMatch(new RegExp(`^attachment; filename="${name}-[0-9-]+\\.csv"$`));
    }
  });

  test("is refused as GET is: 401 without a token, 403 for a customer, 422 for a bad filter, and reads nothing", async () => {
    const customer = await tokenFor("customer");
    const before = { ...pagesRead };
    for (const [path, token, status] of [
      ["orders.csv", undefined, 401],
      ["payments.csv", customer, 403],
      ["orders.csv?status=shipped", admin, 422],
      ["payments.csv?needs_attention=maybe", admin, 422],
      ["licenses.csv?product_id=not-a-uuid", admin, 422],
    ] as const) {
      const head = await ask("HEAD", path, token);
      const get = await ask("GET", path, token);
      expect([path, head.status]).toEqual([path, status]);
      expect(head.body).toBe("");
      expect(head.headers["content-type"]).toBe("application/problem+json");
      expect(get.status).toBe(status);
      expect(head.headers["content-type"]).toBe(get.headers["content-type"] as string);
    }
    expect(pagesRead).toEqual(before);
  });

  test("takes an API key with the read scope of the list the export mirrors, and refuses one without it", async () => {
    const created = await call(marketplace.app, "POST", "/api/admin/api-keys", {
      token: admin,
      body: { name: "licenses only", scopes: ["fulfillments:read"] },
    });
    expect(created.status).toBe(201);
    const key = created.body.secret as string;
    const before = { ...pagesRead };
    expect((await ask("HEAD", "licenses.csv", key)).status).toBe(200);
    const refused = await ask("HEAD", "orders.csv", key);
    expect(refused.status).toBe(403);
    expect(refused.body).toBe("");
    expect((await ask("GET", "orders.csv", key)).status).toBe(403);
    expect(pagesRead).toEqual(before);
  });
});
