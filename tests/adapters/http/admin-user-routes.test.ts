import { beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
let marketplace: ReturnType<typeof createTestMarketplace>;
const adminId = crypto.randomUUID();
let admin = "";

beforeAll(async () => {
  marketplace = createTestMarketplace(db.current.sql);
  admin = await tokenFor("admin", adminId);
});
db.onTeardown(() => marketplace.close());

async function aCustomer() {
  const response = await call(marketplace.app, "POST", "/api/auth/register", {
    body: { email: `u-${crypto.randomUUID()}@example.com`, password: "customer password", name: "Uma" },
  });
  return response.body as { token: string; user: { id: string } };
}

const patch = (id: string, body: unknown, token = admin) =>
  call(marketplace.app, "PATCH", `/api/admin/users/${id}`, { token, body });

describe("admin user routes", () => {
  test("a guest record can be disabled but never made an admin", async () => {
    const [guest] = await db.current.sql<{ id: string }[]>`
      insert into users (email, name, role, password_hash, guest)
      values (${`guest-${crypto.randomUUID()}@example.com`}, 'Grace', 'customer', null, true) returning id`;
    const id = guest?.id ?? "";
    expectProblemShape(await patch(id, { role: "admin" }), 409, "GUEST_CANNOT_BE_ADMIN");
    const disabled = await patch(id, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ guest: true, disabled: true, role: "customer" });
  });

  test("need an admin: 401 without a token, 403 for a customer", async () => {
    const { token } = await aCustomer();
    expectProblemShape(await call(marketplace.app, "GET", "/api/admin/users"), 401, "AUTHENTICATION_REQUIRED");
    expectProblemShape(await call(marketplace.app, "GET", "/api/admin/users", { token }), 403, "FORBIDDEN_ROLE");
    expectProblemShape(await patch(adminId, { role: "customer" }, token), 403, "FORBIDDEN_ROLE");
  });

  test("the list pages newest first with a cursor, each account once", async () => {
    const created = [await aCustomer(), await aCustomer(), await aCustomer()].map((c) => c.user.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : "?limit=2";
      const page = await call(marketplace.app, "GET", `/api/admin/users${query}`, { token: admin });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.indexOf(created[2] ?? "")).toBeLessThan(seen.indexOf(created[0] ?? ""));
    const first = await call(marketplace.app, "GET", "/api/admin/users?limit=1", { token: admin });
    expect(Object.keys(first.body.items[0]).sort()).toEqual(
      ["created_at", "disabled", "email", "email_verified", "guest", "id", "name", "role"].sort(),
    );
  });

  test("promotes, demotes, disables and enables another account", async () => {
    const { user, token } = await aCustomer();
    expect((await patch(user.id, { role: "admin" })).body).toMatchObject({ id: user.id, role: "admin" });
    expect((await call(marketplace.app, "GET", "/api/admin/users", { token })).status).toBe(200);
    expect((await patch(user.id, { role: "customer", disabled: true })).body).toMatchObject({
      role: "customer",
      disabled: true,
    });
    expect((await patch(user.id, { disabled: false })).body).toMatchObject({ disabled: false });
  });

  test("an admin cannot demote or disable themselves: 409 ADMIN_SELF_LOCKOUT, nothing changes", async () => {
    expectProblemShape(await patch(adminId, { role: "customer" }), 409, "ADMIN_SELF_LOCKOUT");
    expectProblemShape(await patch(adminId, { disabled: true }), 409, "ADMIN_SELF_LOCKOUT");
    expect((await call(marketplace.app, "GET", "/api/admin/users", { token: admin })).status).toBe(200);
    expect((await patch(adminId, { role: "admin", disabled: false })).status).toBe(200);
  });

  test("an unknown or malformed id is 404; an empty or unknown change is 422", async () => {
    expectProblemShape(await patch(crypto.randomUUID(), { disabled: true }), 404, "USER_NOT_FOUND");
    expectProblemShape(await patch("not-a-uuid", { disabled: true }), 404, "USER_NOT_FOUND");
    const { user } = await aCustomer();
    expect((await patch(user.id, {})).status).toBe(422);
    expect((await patch(user.id, { role: "owner" })).status).toBe(422);
    expect((await patch(user.id, { token_version: 0 })).status).toBe(422);
  });
});
