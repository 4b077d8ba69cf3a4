import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { setupServer } from "msw/node";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV, localhostOnly } from "../../support/gateway-env.ts";

const db = useTestDatabase();
const RUNS = Number(process.env.HOSTILE_RUNS ?? 200);
// Nothing here may reach a gateway; an unexpected outbound call fails the test instead.
const server = setupServer();
let app: ReturnType<typeof createTestMarketplace>["app"];
const tokens: Record<"none" | "customer" | "admin", string | undefined> = {
  none: undefined,
  customer: undefined,
  admin: undefined,
};

beforeAll(async () => {
  server.listen({ onUnhandledRequest: localhostOnly });
  db.onTeardown(() => server.close());
  // Limits out of the way, so every generated body reaches parsing and validation.
  const unlimited = Object.fromEntries(
    ["AUTH", "LICENSE", "WEBHOOK", "CHECKOUT"].flatMap((g) => [
      [`${g}_RATE_LIMIT_BURST`, "1000000"],
      [`${g}_RATE_LIMIT_PER_SECOND`, "1000000"],
    ]),
  );
  app = createTestMarketplace(db.current.sql, {}, { env: { ...GATEWAY_TEST_ENV, ...unlimited } }).app;
  tokens.customer = await tokenFor("customer");
  tokens.admin = await tokenFor("admin");
});

const id = "00000000-0000-4000-8000-000000000000";
type Role = keyof typeof tokens;
const ENDPOINTS: [string, string, Role, string[]][] = [
  ["POST", "/api/auth/register", "none", ["email", "password", "name"]],
  ["POST", "/api/auth/login", "none", ["email", "password"]],
  ["POST", "/api/checkout/calculate", "none", ["items", "payment_gateway"]],
  ["POST", "/api/licenses/activate", "none", ["key", "fingerprint"]],
  ["POST", "/api/licenses/validate", "none", ["key"]],
  ["POST", "/api/webhooks/gateway_a", "none", ["event_id", "event_type", "data"]],
  ["POST", "/api/webhooks/gateway_b", "none", ["id", "type", "data"]],
  ["POST", "/api/checkout/create", "customer", ["items", "payment_gateway"]],
  ["POST", `/api/fulfillments/${id}/customer-input`, "customer", ["domain"]],
  ["POST", `/api/fulfillments/${id}/retry`, "customer", []],
  [
    "POST",
    "/api/admin/products",
    "admin",
    ["name", "slug", "delivery_model", "fulfillment_driver", "fulfillment_config", "tags", "trial_days"],
  ],
  [
    "PUT",
    `/api/admin/products/${id}`,
    "admin",
    ["name", "slug", "delivery_model", "fulfillment_driver", "fulfillment_config"],
  ],
  ["POST", "/api/admin/products/pricing-mappings/bulk", "admin", ["product_id", "mappings"]],
  ["PUT", "/api/admin/gateway_a/settings", "admin", ["environment", "sandbox", "live", "timeout_seconds"]],
  ["PUT", "/api/admin/gateway_b/settings", "admin", ["environment", "sandbox", "live"]],
  ["PUT", "/api/admin/secrets/some_ref", "admin", ["value"]],
  ["POST", "/api/admin/gateway_a/products/create", "admin", ["product_id"]],
  [
    "POST",
    "/api/admin/fulfillment/test-connection",
    "admin",
    ["product_id", "fulfillment_driver", "fulfillment_config"],
  ],
  ["POST", `/api/admin/orders/${id}/refund`, "admin", ["amount"]],
  ["POST", `/api/admin/manual-tasks/${id}/complete`, "admin", ["url", "notes"]],
  ["POST", `/api/admin/fulfillments/${id}/cancel`, "admin", ["reason"]],
];

/** Slower than this, a hostile body holds the event loop too long: every other request waits. */
const ANSWER_BUDGET_MS = 250;

/** Nesting far past any validator's stack (10,000 to 120,000 levels), as objects or arrays. */
const deepText = (key: string) =>
  fc.record({ depth: fc.integer({ min: 10_000, max: 120_000 }), arrays: fc.boolean() }).map(({ depth, arrays }) => {
    const [open, close] = arrays ? ["[", "]"] : [`{${JSON.stringify(key)}:`, "}"];
    return `${open.repeat(depth)}1${close.repeat(depth)}`;
  });

/** Arrays of up to 200,000 elements, at the top or under a field. */
const wideText = (key: string) =>
  fc.record({ length: fc.integer({ min: 1_000, max: 200_000 }), nested: fc.boolean() }).map(({ length, nested }) => {
    const array = `[${"0,".repeat(length - 1)}0]`;
    return nested ? `{${JSON.stringify(key)}:${array}}` : array;
  });

/** Wrong types, deep nesting, wide arrays, unicode, huge strings, unknown keys, and bodies that are not JSON at all. */
function hostileBody(keys: string[]) {
  const json = fc.oneof(
    fc.jsonValue({ maxDepth: 30 }),
    fc.dictionary(keys.length > 0 ? fc.constantFrom(...keys) : fc.string(), fc.jsonValue({ maxDepth: 4 }), {
      maxKeys: 8,
    }),
    fc.record(
      Object.fromEntries(
        keys.map((k) => [
          k,
          fc.oneof(
            fc.string({ unit: "binary", maxLength: 3000 }),
            fc.integer(),
            fc.double(),
            fc.boolean(),
            fc.constant(null),
            fc.array(fc.anything(), { maxLength: 5 }),
          ),
        ]),
      ),
    ),
    fc.nat({ max: 200 }).map((depth) => {
      let nested: unknown = "deep";
      for (let i = 0; i < depth; i++) nested = { [keys[0] ?? "k"]: nested };
      return nested;
    }),
  );
  return fc.oneof(
    {
      weight: 4,
      arbitrary: json.map((value) => ({ text: JSON.stringify(value) ?? "null", type: "application/json" })),
    },
    {
      weight: 1,
      arbitrary: fc.string({ unit: "binary", maxLength: 2000 }).map((text) => ({ text, type: "application/json" })),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ text, type: "text/plain" })) },
    { weight: 1, arbitrary: deepText(keys[0] ?? "k").map((text) => ({ text, type: "application/json" })) },
    { weight: 1, arbitrary: wideText(keys[0] ?? "k").map((text) => ({ text, type: "application/json" })) },
  );
}

describe("hostile bodies never yield a 500 and always a problem+json", () => {
  test.each(ENDPOINTS)(
    "%s %s",
    async (method, path, role, keys) => {
      let slowest = 0;
      await fc.assert(
        fc.asyncProperty(hostileBody(keys), async (body) => {
          const headers: Record<string, string> = { "content-type": body.type };
          const token = tokens[role];
          if (token) headers.authorization = `Bearer ${token}`;
          const started = performance.now();
          const response = await app.handle(
            new Request(`http://localhost${path}`, { method, headers, body: body.text }),
          );
          const text = await response.text();
          slowest = Math.max(slowest, performance.now() - started);
          expect(performance.now() - started).toBeLessThan(ANSWER_BUDGET_MS);
          expect(response.status).not.toBe(500);
          if (response.status >= 400) {
            expect(response.headers.get("content-type") ?? "").toStartWith("application/problem+json");
            const problem = JSON.parse(text) as { status: number; code: string };
            expect(problem.status).toBe(response.status);
            expect(problem.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
          }
        }),
        { numRuns: RUNS },
      );
      console.log(`${method} ${path}: slowest of ${RUNS} hostile answers ${slowest.toFixed(1)} ms`);
    },
    120_000,
  );
});
