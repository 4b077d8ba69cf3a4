import { beforeAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call } from "../../support/http.ts";

const db = useTestDatabase();
let app: Parameters<typeof call>[0];
let customer = "";
let admin = "";

beforeAll(async () => {
  app = createTestApp(db.current.sql);
  customer = await tokenFor("customer");
  admin = await tokenFor("admin");
});

const cacheControl = async (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
  (await call(app, method, path, options)).headers.get("cache-control");

describe("Cache-Control: no-store on every answer that carries a person's data or a credential", () => {
  test("registration and sign-in, answered or refused: the token never lands in a cache", async () => {
    const email = `ns-${crypto.randomUUID()}@example.com`;
    const body = { email, password: "correct horse", name: "Nia" };
    const registered = await call(app, "POST", "/api/auth/register", { body });
    expect(registered.status).toBe(201);
    expect(registered.headers.get("cache-control")).toBe("no-store");
    const login = await call(app, "POST", "/api/auth/login", { body: { email, password: "correct horse" } });
    expect(login.status).toBe(200);
    expect(login.headers.get("cache-control")).toBe("no-store");
    expect(await cacheControl("POST", "/api/auth/login", { body: { email, password: "wrong one" } })).toBe("no-store");
    expect(await cacheControl("POST", "/api/auth/register", { body: { ...body, email: "x,eve@victim.example" } })).toBe(
      "no-store",
    );
  });

  test.each([
    ["GET", "/api/me"],
    ["GET", "/api/licenses"],
    ["GET", "/api/orders"],
    ["GET", "/api/dashboard"],
    ["GET", "/api/notifications"],
  ])("%s %s with a customer's token", async (method, path) => {
    const response = await call(app, method, path, { token: customer });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  test.each([
    ["GET", "/api/admin/products"],
    ["GET", "/api/admin/orders"],
    ["GET", "/api/admin/users"],
    ["GET", "/api/admin/secrets"],
  ])("%s %s with an admin's token, and refused to a customer or to nobody", async (method, path) => {
    const answered = await call(app, method, path, { token: admin });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("cache-control")).toBe("no-store");
    expect(await cacheControl(method, path, { token: customer })).toBe("no-store");
    expect(await cacheControl(method, path)).toBe("no-store");
  });

  test("an invalid or forged bearer token on any API path: the refusal is not cached either", async () => {
    expect(await cacheControl("GET", "/api/orders", { token: "not.a.token" })).toBe("no-store");
    expect(await cacheControl("GET", "/api/me", { headers: { authorization: "Basic Zm9vOmJhcg==" } })).toBe("no-store");
    expect(await cacheControl("GET", "/api/no-such-route", { token: customer })).toBe("no-store");
  });

  test("public answers keep their own caching: the catalog, health and pages", async () => {
    expect(await cacheControl("GET", "/api/products")).not.toBe("no-store");
    expect(await cacheControl("GET", "/health")).toBeNull();
  });
});
