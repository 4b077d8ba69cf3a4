import { describe, expect, test } from "bun:test";
import { expectProblemShape } from "../../support/http.ts";
import { createTestSim } from "../harness.ts";

const get = (path: string) => createTestSim().app.handle(new Request(`http://localhost${path}`));

describe("GET /artifacts/:product/:version", () => {
  test("serves a release archive without auth, as an attachment named after product and version", async () => {
    const response = await get("/artifacts/shelfwise/2.4.1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="shelfwise-2.4.1.tar.gz"');
    expect(await response.text()).toBe("shelfwise 2.4.1 release archive\n");
  });

  test("any product and version made of [a-z0-9._-] is served", async () => {
    const response = await get("/artifacts/my_tool-x/10.0.0-rc.1");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("my_tool-x 10.0.0-rc.1 release archive\n");
  });

  test.each([
    ["an upper-case name", "/artifacts/Shelfwise/2.4.1"],
    ["a name with a space", "/artifacts/shelf%20wise/2.4.1"],
    ["a name with a quote", "/artifacts/shelfwise/2.4.1%22"],
    ["a name with an encoded slash", "/artifacts/shelfwise/..%2F..%2Fetc"],
    ["a name over 64 characters", `/artifacts/${"a".repeat(65)}/2.4.1`],
  ])("%s is a 404 problem", async (_label, path) => {
    const response = await get(path);
    const body = await response.json();
    expectProblemShape({ status: response.status, headers: response.headers, body }, 404, "ARTIFACT_NOT_FOUND");
  });

  test("a name of exactly 64 characters is served", async () => {
    expect((await get(`/artifacts/${"a".repeat(64)}/1.0.0`)).status).toBe(200);
  });

  test("without a version there is no artifact", async () => {
    expect((await get("/artifacts/shelfwise")).status).toBe(404);
  });
});
