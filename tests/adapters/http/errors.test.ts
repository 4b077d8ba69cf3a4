import { describe, expect, test } from "bun:test";
import { createTestApp } from "../../support/app.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
const app = () => createTestApp(db.current.sql);
const ONE_MIB = 1024 * 1024;

describe("every error is RFC 9457 problem+json", () => {
  test("malformed JSON is a 400", async () => {
    const response = await call(app(), "POST", "/api/auth/login", {
      rawBody: '{"email": "a@b.co",',
      headers: { "content-type": "application/json" },
    });
    expectProblemShape(response, 400, "MALFORMED_JSON");
  });

  test("a schema violation is a 422 listing each field", async () => {
    const response = await call(app(), "POST", "/api/auth/register", { body: { email: 42, name: "x" } });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
    const paths = (response.body.errors as { path: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual(["/email", "/password"]);
    for (const error of response.body.errors)
      expect(error).toMatchObject({ message: expect.any(String), code: "SCHEMA_VIOLATION" });
  });

  test("a NUL character, which PostgreSQL text cannot hold, is refused before any query", async () => {
    const body = await call(app(), "POST", "/api/auth/register", {
      rawBody: '{"email":"a\\u0000@b.co","password":"long enough","name":"N"}',
      headers: { "content-type": "application/json" },
    });
    expectProblemShape(body, 422, "VALIDATION_FAILED");
    expect(body.body.errors).toEqual([{ path: "/email", code: "NUL_CHARACTER", message: expect.any(String) }]);
    expectProblemShape(await call(app(), "GET", "/api/products?q=%00"), 400, "NUL_CHARACTER");
    const shadowing = await call(app(), "POST", "/api/auth/login", {
      body: { email: { toString: null }, password: "x" },
    });
    expect(shadowing.body.errors).toEqual([
      { path: "/email/toString", code: "RESERVED_KEY", message: expect.any(String) },
    ]);
    expectProblemShape(await call(app(), "GET", "/api/products/a%00b"), 400, "NUL_CHARACTER");
  });

  test("an unknown route is a 404", async () => {
    expectProblemShape(await call(app(), "GET", "/api/does-not-exist"), 404, "ROUTE_NOT_FOUND");
  });

  test("a body over 1 MiB is a 413, declared length or not", async () => {
    const big = `{"email":"${"a".repeat(ONE_MIB)}"}`;
    const declared = await call(app(), "POST", "/api/auth/login", {
      rawBody: big,
      headers: { "content-type": "application/json", "content-length": String(big.length) },
    });
    expectProblemShape(declared, 413, "PAYLOAD_TOO_LARGE");
    const stream = new Blob([big]).stream();
    const chunked = await call(app(), "POST", "/api/auth/login", {
      rawBody: stream,
      headers: { "content-type": "application/json" },
    });
    expectProblemShape(chunked, 413, "PAYLOAD_TOO_LARGE");
  });

  test("a body just under the limit is parsed normally", async () => {
    const response = await call(app(), "POST", "/api/auth/login", {
      // Eight strings: one string of a megabyte is refused on its own (BODY_STRING_TOO_LONG).
      body: { email: "a@b.co", password: "p".repeat(200), pad: Array(8).fill("x".repeat((ONE_MIB - 1000) / 8)) },
    });
    expectProblemShape(response, 401, "INVALID_CREDENTIALS");
  });

  test("an unexpected exception is a 500 with no stack, SQL or message", async () => {
    const failing = createTestApp(db.current.sql, {
      authenticate: async () => {
        throw new Error('relation "users" does not exist: select password_hash from users');
      },
    });
    const response = await call(failing, "POST", "/api/auth/login", {
      body: { email: "a@b.co", password: "whatever1" },
    });
    expectProblemShape(response, 500, "INTERNAL_ERROR");
    const text = JSON.stringify(response.body);
    expect(text).not.toContain("select");
    expect(text).not.toContain("relation");
    expect(text).not.toMatch(/at .*\.ts:\d+/);
  });

  test("every response carries a request id, and a sane incoming one is echoed", async () => {
    const fresh = await call(app(), "GET", "/health");
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await call(app(), "GET", "/nowhere", { headers: { "x-request-id": "abc-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("abc-123");
    expect(echoed.body.instance).toBe("urn:request:abc-123");
    const hostile = await call(app(), "GET", "/health", { headers: { "x-request-id": "<script> id" } });
    expect(hostile.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("health and readiness", () => {
  test("/health and /ready answer 200 on a migrated database", async () => {
    expect(await call(app(), "GET", "/health")).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(await call(app(), "GET", "/ready")).toMatchObject({
      status: 200,
      body: { status: "ready", database: true, migrations: true },
    });
  });

  test("/ready is a 503 problem when the database is down", async () => {
    const down = createTestApp(db.current.sql, {
      checkReadiness: async () => ({ database: false, migrations: false }),
    });
    expectProblemShape(await call(down, "GET", "/ready"), 503, "NOT_READY");
  });

  test("the OpenAPI UI is served at /openapi", async () => {
    const response = await createTestApp(db.current.sql).handle(new Request("http://localhost/openapi"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain(`data-url="openapi/json"`);
  });

  test("the OpenAPI document lists the auth routes", async () => {
    const spec = await call(app(), "GET", "/openapi/json");
    expect(spec.status).toBe(200);
    expect(Object.keys(spec.body.paths)).toEqual(
      expect.arrayContaining(["/api/auth/register", "/api/auth/login", "/api/me"]),
    );
  });
});
