import { beforeAll, describe, expect, test } from "bun:test";
import { createTestMarketplace } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { GATEWAY_TEST_ENV } from "../../support/gateway-env.ts";
import { call, expectProblemShape } from "../../support/http.ts";

const db = useTestDatabase();
let marketplace: ReturnType<typeof createTestMarketplace>;

beforeAll(async () => {
  marketplace = createTestMarketplace(db.current.sql, {}, { env: { ...GATEWAY_TEST_ENV } });
});

const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

test("redriving an unknown job is a 404 problem+json", async () => {
  const response = await call(marketplace.app, "POST", `/api/admin/jobs/${UNKNOWN}/redrive`, {
    token: await tokenFor("admin"),
  });
  expectProblemShape(response, 404, "JOB_NOT_FOUND");
});

/**
 * Every route, called by every kind of caller with unknown ids and an empty body: whatever the
 * answer, an error leaves as problem+json with a body. A route that hand-writes its error (as
 * the redrive route once did, as `application/json`) fails here.
 */
describe("every route answers its errors as problem+json", () => {
  test("all routes, three callers", async () => {
    const routes = marketplace.app.routes.filter(
      (route) => route.method !== "GET" || !route.path.startsWith("/openapi"),
    );
    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let errors = 0;
    for (const route of routes) {
      const path = route.path.replace(/:[a-z_]+/gi, UNKNOWN).replace("*", "anything");
      // Fresh accounts per route: a route such as logout-all ends the tokens it was called with.
      const callers = { anonymous: undefined, customer: await tokenFor("customer"), admin: await tokenFor("admin") };
      for (const [caller, token] of Object.entries(callers)) {
        const hasBody = !["GET", "HEAD", "DELETE"].includes(route.method);
        const response = await call(marketplace.app, route.method, path, {
          ...(token ? { token } : {}),
          ...(hasBody ? { body: {} } : {}),
        });
        if (response.status < 400) continue;
        errors++;
        const type = response.headers.get("content-type") ?? "";
        const body = response.body as { status?: number; code?: string } | undefined;
        if (
          response.status >= 500 ||
          !type.startsWith("application/problem+json") ||
          body?.status !== response.status
        ) {
          failures.push(`${caller} ${route.method} ${route.path} -> ${response.status} ${type}`);
        } else if (!/^[A-Z][A-Z0-9_]*$/.test(body.code ?? "")) {
          failures.push(`${caller} ${route.method} ${route.path} -> code ${body.code}`);
        }
      }
    }
    expect(errors).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 60_000);
});
