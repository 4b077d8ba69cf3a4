import { describe, expect, test } from "bun:test";
import { takesIdempotencyKey } from "../../adapters/http/idempotent-routes.ts";
import { hasRealPostgres, useTestDatabase } from "../support/database.ts";
import { eventually, http, registerCustomer, useE2e } from "../support/e2e.ts";
import { ACCESS_CASES } from "../support/idempotency/access-cases.ts";
import { ADMIN_CASES } from "../support/idempotency/admin-cases.ts";
import { CUSTOMER_CASES } from "../support/idempotency/customer-cases.ts";
import { type Case, fixtures, type Prepared } from "../support/idempotency/fixtures.ts";
import { marketplaceDocument } from "../support/openapi-contract.ts";
import { useSecondInstance } from "../support/second-instance.ts";

/** Every route is called many times over from one address: no rate limit may answer for it. */
const UNLIMITED = Object.fromEntries(
  ["AUTH", "LICENSE", "CHECKOUT"].flatMap((group) => [
    [`${group}_RATE_LIMIT_BURST`, "100000"],
    [`${group}_RATE_LIMIT_PER_SECOND`, "100000"],
  ]),
);
const db = useTestDatabase();
const e2e = useE2e(db, { env: UNLIMITED });
const f = fixtures(e2e, db);
/** A second marketplace on the same database, as behind a load balancer. */
const second = useSecondInstance(db, e2e, UNLIMITED);

/** Every mutating route of the API document that honours Idempotency-Key, as `METHOD /path/{param}`. */
const keyedRoutes = Object.entries(marketplaceDocument.paths as Record<string, Record<string, unknown>>).flatMap(
  ([path, operations]) =>
    Object.keys(operations)
      .map((method) => method.toUpperCase())
      .filter((method) => takesIdempotencyKey(method, path))
      .map((method) => `${method} ${path}`),
);

const CASES: Readonly<Record<string, Case>> = { ...ADMIN_CASES, ...ACCESS_CASES, ...CUSTOMER_CASES };

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly replayed: boolean;
  readonly body: string;
}

async function send(base: string, method: string, prepared: Prepared, key: string): Promise<Answer> {
  const response = await fetch(`${base}${prepared.path}`, {
    method,
    headers: {
      "idempotency-key": key,
      ...(prepared.body === undefined ? {} : { "content-type": "application/json" }),
      ...(prepared.token ? { authorization: `Bearer ${prepared.token}` } : {}),
    },
    ...(prepared.body === undefined ? {} : { body: JSON.stringify(prepared.body) }),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    replayed: response.headers.get("idempotent-replayed") === "true",
    // Hex, so that equal answers are equal bytes, not merely equal JSON.
    body: Buffer.from(bytes).toString("hex"),
  };
}

const text = (answer: Answer) => Buffer.from(answer.body, "hex").toString("utf8");

test("every mutating route that takes a key has a case here, and every case a route", () => {
  expect(keyedRoutes.length).toBeGreaterThan(50);
  expect(keyedRoutes.filter((route) => !(route in CASES))).toEqual([]);
  expect(Object.keys(CASES).filter((route) => !keyedRoutes.includes(route))).toEqual([]);
});

describe.skipIf(!hasRealPostgres)("each mutating route, twice under one key", () => {
  for (const route of Object.keys(CASES).sort()) {
    const [method = "", template = ""] = route.split(" ");
    const build = CASES[route] as Case;
    test(`${route}: one effect, sent one after the other and at once to two instances`, async () => {
      const sequential = await build(f);
      const before = await sequential.count();
      const key = crypto.randomUUID();
      const first = await send(e2e.url, method, sequential, key);
      expect(first.status, `${template} answered ${text(first)}`).toBeLessThan(300);
      expect(first.replayed).toBe(false);
      expect(await send(e2e.url, method, sequential, key)).toEqual({ ...first, replayed: true });
      expect((await sequential.count()) - before).toBe(sequential.expected ?? 1);

      const concurrent = await build(f);
      const held = await concurrent.count();
      const shared = crypto.randomUUID();
      const both = await Promise.all([
        send(e2e.url, method, concurrent, shared),
        send(second.url ?? "", method, concurrent, shared),
      ]);
      const ran = both.filter((answer) => !answer.replayed && answer.status !== 409);
      expect(ran, both.map(text).join("\n")).toHaveLength(1);
      const original = ran[0] as Answer;
      expect(original.status, text(original)).toBeLessThan(300);
      for (const other of both.filter((answer) => answer !== original)) {
        if (other.status === 409) expect(JSON.parse(text(other)).code).toBe("IDEMPOTENT_REQUEST_IN_PROGRESS");
        else expect(other).toEqual({ ...original, replayed: true });
      }
      const settled = await eventually(async () => {
        const again = await send(second.url ?? "", method, concurrent, shared);
        return again.status === 409 ? undefined : again;
      });
      expect(settled).toEqual({ ...original, replayed: true });
      expect((await concurrent.count()) - held).toBe(concurrent.expected ?? 1);
    }, 60_000);
  }
});

describe.skipIf(!hasRealPostgres)("what a key does not cover", () => {
  test("sign-in runs every time: a token is never kept, nor replayed", async () => {
    const customer = await registerCustomer(e2e);
    const [row] = await db.current.sql<{ email: string }[]>`select email from users where id = ${customer.id}`;
    const body = { email: row?.email, password: "customer password" };
    const key = crypto.randomUUID();
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${e2e.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("idempotent-replayed")).toBeNull();
    }
    const kept = await db.current.sql`select 1 from idempotent_requests where key = ${key}`;
    expect(kept).toHaveLength(0);
  });

  test("a key that is no token is a 400 problem, and nothing runs", async () => {
    const customer = await registerCustomer(e2e);
    for (const key of ["", "with space", "x".repeat(256), "naïve"]) {
      const answer = await fetch(`${e2e.url}/api/notifications/read-all`, {
        method: "POST",
        headers: { authorization: `Bearer ${customer.token}`, "idempotency-key": key },
      });
      expect(answer.status, key).toBe(400);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(((await answer.json()) as { code: string }).code).toBe("IDEMPOTENCY_KEY_INVALID");
    }
  });

  test("the same key with another body is a 422 IDEMPOTENCY_KEY_REUSED; on another route it is another request", async () => {
    const admin = await f.admin();
    const key = crypto.randomUUID();
    const make = (name: string) =>
      http(e2e.url, "POST", "/api/admin/api-keys", {
        token: admin.token,
        body: { name, scopes: ["orders:read"] },
        headers: { "idempotency-key": key },
      });
    expect((await make("first")).status).toBe(201);
    const reused = await make("second");
    expect([reused.status, reused.body.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
    const elsewhere = await http(e2e.url, "POST", "/api/admin/webhook-endpoints", {
      token: admin.token,
      body: { url: `${e2e.sim.url}/hooks/elsewhere`, events: ["order.paid"] },
      headers: { "idempotency-key": key },
    });
    expect(elsewhere.status).toBe(201);
  });
});
