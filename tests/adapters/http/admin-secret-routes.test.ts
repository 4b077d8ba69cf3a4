import { expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();

test("an admin stores a secret, lists it without its value, and the store resolves it", async () => {
  const marketplace = createTestMarketplace(db.current.sql);
  const admin = await tokenFor("admin");
  const put = await call(marketplace.app, "PUT", "/api/admin/secrets/pos_token", {
    token: admin,
    body: { value: "very-secret-token-value" },
  });
  expect(put.status).toBe(204);
  const listed = await call(marketplace.app, "GET", "/api/admin/secrets", { token: admin });
  expect(listed.body.items).toContainEqual(expect.objectContaining({ ref: "pos_token", source: "stored" }));
  expect(JSON.stringify(listed.body)).not.toContain("very-secret-token-value");
  expect(await marketplace.secrets.resolve("pos_token", { kind: "provider_bearer_token" })).toBe(
    "very-secret-token-value",
  );
  await marketplace.close();
});

test("secrets are admin-only and references are names", async () => {
  const marketplace = createTestMarketplace(db.current.sql);
  const customer = await tokenFor("customer");
  const admin = await tokenFor("admin");
  expectProblemShape(
    await call(marketplace.app, "PUT", "/api/admin/secrets/x", { token: customer, body: { value: "v" } }),
    403,
    "FORBIDDEN_ROLE",
  );
  expectProblemShape(
    await call(marketplace.app, "PUT", "/api/admin/secrets/bad%20ref", { token: admin, body: { value: "v" } }),
    422,
    "VALIDATION_FAILED",
  );
  expectProblemShape(
    await call(marketplace.app, "PUT", "/api/admin/secrets/ok_ref", { token: admin, body: { value: "" } }),
    422,
    "VALIDATION_FAILED",
  );
  await marketplace.close();
});
