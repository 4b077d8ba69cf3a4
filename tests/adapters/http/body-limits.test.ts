import { beforeAll, describe, expect, test } from "bun:test";
import { SERVER_BODY_LIMIT } from "../../../kit/body-parser.ts";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV } from "../../support/gateway-env.ts";

const db = useTestDatabase();
const BODY_LIMIT = 1024 * 1024;
let base = "";
const tokens: Record<string, string> = {};

beforeAll(async () => {
  const marketplace = createTestMarketplace(db.current.sql, {}, { env: GATEWAY_TEST_ENV });
  // A real server, so a request that blocks the event loop would delay the others.
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    maxRequestBodySize: SERVER_BODY_LIMIT,
    fetch: marketplace.app.fetch,
  });
  base = `http://127.0.0.1:${server.port}`;
  db.onTeardown(async () => {
    server.stop(true);
    await marketplace.close();
  });
  tokens.customer = await tokenFor("customer");
  tokens.admin = await tokenFor("admin");
});

/** The four endpoints where a 100,000-level body froze the whole server for 7 s. */
const ATTACKED: [string, string | undefined][] = [
  ["/api/checkout/calculate", undefined],
  ["/api/checkout/create", "customer"],
  ["/api/admin/products/pricing-mappings/bulk", "admin"],
  ["/api/admin/fulfillment/test-connection", "admin"],
];

async function post(path: string, body: BodyInit, role?: string, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", ...extra };
  if (role) headers.authorization = `Bearer ${tokens[role]}`;
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { method: "POST", headers, body });
  const text = await response.text();
  return { status: response.status, type: response.headers.get("content-type"), text, ms: performance.now() - started };
}

function expectProblem(answer: { status: number; type: string | null; text: string }, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.type ?? "").toStartWith("application/problem+json");
  expect(JSON.parse(answer.text)).toMatchObject({ status, code });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe("the attack as it was sent", () => {
  const deepObject = `${'{"items":'.repeat(100_000)}1${"}".repeat(100_000)}`;
  const deepArray = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;

  test.each(ATTACKED)("100,000 levels to %s: 400 BODY_TOO_DEEP in well under 50 ms", async (path, role) => {
    const times: number[] = [];
    for (const body of [deepObject, deepArray, deepObject, deepArray, deepObject]) {
      const answer = await post(path, body, role);
      expectProblem(answer, 400, "BODY_TOO_DEEP");
      times.push(answer.ms);
    }
    console.log(`${path}: 100,000 levels refused in ${median(times).toFixed(1)} ms (median of 5)`);
    expect(median(times)).toBeLessThan(50);
  });

  test("a concurrent /health is not delayed by deep bodies in flight", async () => {
    const attacks = Array.from({ length: 8 }, (_, i) =>
      post(ATTACKED[i % 4]?.[0] ?? "", deepObject, ATTACKED[i % 4]?.[1]),
    );
    const started = performance.now();
    const health = await fetch(`${base}/health`);
    const healthMs = performance.now() - started;
    expect(health.status).toBe(200);
    for (const answer of await Promise.all(attacks)) expectProblem(answer, 400, "BODY_TOO_DEEP");
    console.log(`/health answered in ${healthMs.toFixed(1)} ms with 8 deep bodies in flight`);
    expect(healthMs).toBeLessThan(250);
  });

  test.each(ATTACKED)("150,000 array elements to %s: 400 BODY_TOO_MANY_MEMBERS", async (path, role) => {
    const wide = `{"items":[${Array.from({ length: 150_000 }, () => "1").join(",")}]}`;
    const answer = await post(path, wide, role);
    expectProblem(answer, 400, "BODY_TOO_MANY_MEMBERS");
    expect(answer.ms).toBeLessThan(250);
  });

  test.each(ATTACKED)("a 1 MiB string to %s: 413 problem+json with a body", async (path, role) => {
    const answer = await post(path, JSON.stringify({ items: "x".repeat(BODY_LIMIT) }), role);
    expectProblem(answer, 413, "PAYLOAD_TOO_LARGE");
    expect(answer.ms).toBeLessThan(250);
  });

  test("a string over the string limit but under the body limit: 400 BODY_STRING_TOO_LONG", async () => {
    const answer = await post(ATTACKED[0]?.[0] ?? "", JSON.stringify({ items: "x".repeat(300_000) }));
    expectProblem(answer, 400, "BODY_STRING_TOO_LONG");
  });
});

describe("the server's own limits answer problem+json too", () => {
  test("a declared length far over the limit: 413 with a problem body, not the server's empty one", async () => {
    const answer = await post("/api/checkout/calculate", "x".repeat(3 * BODY_LIMIT));
    expectProblem(answer, 413, "PAYLOAD_TOO_LARGE");
  });

  test("a chunked body that grows past the limit: 413 with a problem body", async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 400) return controller.close();
        controller.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
      },
    });
    const response = await fetch(`${base}/api/checkout/calculate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expectProblem(
      { status: response.status, type: response.headers.get("content-type"), text: await response.text() },
      413,
      "PAYLOAD_TOO_LARGE",
    );
    // The reader stopped at the limit instead of taking all 25 MiB.
    expect(sent).toBeLessThan(400);
  });
});
