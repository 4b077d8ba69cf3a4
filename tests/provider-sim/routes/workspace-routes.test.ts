import { describe, expect, test } from "bun:test";
import { expectProblemShape } from "../../support/http.ts";
import { createTestSim } from "../harness.ts";

describe("GET /workspaces/:tenant", () => {
  test("the workspace_url of a tenant serves an HTML page without auth", async () => {
    const sim = createTestSim();
    const tenant = (await sim.onboard()).body;
    const path = new URL(tenant.workspace_url).pathname;
    const response = await sim.app.handle(new Request(`http://localhost${path}`));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/html");
    expect(await response.text()).toContain(tenant.external_tenant_id);
  });

  test("an unknown tenant is a 404", async () => {
    expectProblemShape(
      await createTestSim().call("GET", "/workspaces/ten_nope", { token: undefined }),
      404,
      "TENANT_NOT_FOUND",
    );
  });
});
