import { describe, expect, test } from "bun:test";
import { expectProblemShape } from "../support/http.ts";
import { createTestSim } from "./harness.ts";

const sim = createTestSim();
const ONBOARD = "/api/marketplace/onboard";
const deep = (levels: number) => `{"customer":${"[".repeat(levels)}${"]".repeat(levels)}}`;

describe("the simulator's body reader refuses hostile shapes before any validation", () => {
  test.each([
    ["100,000 levels of nesting: 400 BODY_TOO_DEEP", deep(100_000), 400, "BODY_TOO_DEEP"],
    ["150,000 array elements: 400 BODY_TOO_MANY_MEMBERS", `[${"0,".repeat(149_999)}0]`, 400, "BODY_TOO_MANY_MEMBERS"],
    [
      "a 1 MiB string: 413 PAYLOAD_TOO_LARGE",
      JSON.stringify({ order_id: "x".repeat(1024 * 1024) }),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    ["invalid UTF-8: 400 MALFORMED_BODY", new Uint8Array([0x7b, 0xff, 0x7d]), 400, "MALFORMED_BODY"],
  ] as const)("%s, within 250 ms", async (_, body, status, code) => {
    const started = performance.now();
    const response = await sim.call("POST", ONBOARD, {
      rawBody: body,
      headers: { "content-type": "application/json" },
    });
    const elapsed = performance.now() - started;
    expectProblemShape(response, status, code);
    expect(elapsed).toBeLessThan(250);
  });

  test("an unauthenticated deep body learns only that it is unauthenticated", async () => {
    const response = await sim.call("POST", ONBOARD, {
      token: undefined,
      rawBody: deep(100_000),
      headers: { "content-type": "application/json" },
    });
    expectProblemShape(response, 401, "UNAUTHORIZED");
  });

  test("64 levels still reach validation", async () => {
    const response = await sim.call("POST", ONBOARD, {
      rawBody: deep(63),
      headers: { "content-type": "application/json" },
    });
    expectProblemShape(response, 422, "VALIDATION_FAILED");
  });
});
