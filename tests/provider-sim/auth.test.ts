import { describe, expect, test } from "bun:test";
import { expectProblemShape } from "../support/http.ts";
import { anOnboardRequest, createTestSim, DAY_SECONDS, HMAC_SECRET, hmacHeaders, START, TOKEN } from "./harness.ts";

const NOW_SECONDS = Math.floor(START.getTime() / 1000);
const ONBOARD = "/api/marketplace/onboard";

/** A signed onboarding; `sentBody` replaces the body after signing. */
function signedOnboard(overrides: { sentBody?: string; secret?: string; timestamp?: number; signature?: string } = {}) {
  const body = JSON.stringify(anOnboardRequest());
  const { secret, timestamp } = overrides;
  const headers = hmacHeaders({ method: "POST", target: ONBOARD, body, secret, timestamp });
  if (overrides.signature) headers["x-marketplace-signature"] = overrides.signature;
  const sent: Record<string, string> = { ...headers, "content-type": "application/json" };
  return { token: undefined, rawBody: overrides.sentBody ?? body, headers: sent };
}

describe("bearer token", () => {
  test("a call without credentials is a 401 problem", async () => {
    const sim = createTestSim();
    expectProblemShape(
      await sim.call("POST", ONBOARD, { token: undefined, body: anOnboardRequest() }),
      401,
      "UNAUTHORIZED",
    );
  });

  test("a wrong bearer token is a 401 and creates nothing", async () => {
    const sim = createTestSim();
    const response = await sim.call("POST", ONBOARD, { token: `${TOKEN}x`, body: anOnboardRequest() });
    expectProblemShape(response, 401, "UNAUTHORIZED");
    expect(sim.store.all()).toHaveLength(0);
  });

  test("the right bearer token is accepted", async () => {
    expect((await createTestSim().onboard()).status).toBe(201);
  });

  test("every provisioning and admin route refuses an anonymous call", async () => {
    const sim = createTestSim();
    const routes: [string, string][] = [
      ["POST", "/api/marketplace/onboard"],
      ["POST", "/api/marketplace/status"],
      ["GET", "/api/marketplace/status/ref_x"],
      ["POST", "/api/marketplace/suspend"],
      ["POST", "/api/marketplace/cancel"],
      ["POST", "/api/marketplace/upgrade"],
      ["GET", "/api/marketplace/admin/overview"],
      ["GET", "/api/marketplace/admin/tenants"],
      ["GET", "/api/marketplace/admin/tenants/ten_x"],
      ["GET", "/api/marketplace/admin/tenants/ten_x/status"],
      ["GET", "/api/marketplace/admin/tenants/ten_x/subscription"],
      ["GET", "/api/marketplace/admin/plans"],
    ];
    for (const [method, path] of routes) {
      expectProblemShape(await sim.call(method, path, { token: undefined }), 401, "UNAUTHORIZED");
    }
  });

  test("credentials are checked before the body: an anonymous invalid or malformed body is still a 401", async () => {
    const sim = createTestSim();
    expectProblemShape(await sim.call("POST", ONBOARD, { token: undefined, body: { plan: 1 } }), 401, "UNAUTHORIZED");
    const malformed = await sim.call("POST", ONBOARD, {
      token: undefined,
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expectProblemShape(malformed, 401, "UNAUTHORIZED");
  });

  test("/health needs no credentials", async () => {
    expect((await createTestSim().call("GET", "/health", { token: undefined })).body).toMatchObject({ status: "ok" });
  });
});

describe("hmac signature", () => {
  test("a valid signature is accepted", async () => {
    const sim = createTestSim();
    expect((await sim.call("POST", ONBOARD, signedOnboard())).status).toBe(201);
  });

  test("a GET is signed over its path with the query string and an empty body", async () => {
    const sim = createTestSim();
    const target = "/api/marketplace/admin/tenants?status=active&limit=5";
    const response = await sim.call("GET", target, {
      token: undefined,
      headers: hmacHeaders({ method: "GET", target }),
    });
    expect(response.status).toBe(200);
    const unsigned = hmacHeaders({ method: "GET", target: "/api/marketplace/admin/tenants" });
    expectProblemShape(await sim.call("GET", target, { token: undefined, headers: unsigned }), 401, "UNAUTHORIZED");
  });

  test("a timestamp more than 300 s from the simulator's clock is refused, 300 s is not", async () => {
    const sim = createTestSim();
    expectProblemShape(
      await sim.call("POST", ONBOARD, signedOnboard({ timestamp: NOW_SECONDS - 301 })),
      401,
      "UNAUTHORIZED",
    );
    expectProblemShape(
      await sim.call("POST", ONBOARD, signedOnboard({ timestamp: NOW_SECONDS + 301 })),
      401,
      "UNAUTHORIZED",
    );
    expect((await sim.call("POST", ONBOARD, signedOnboard({ timestamp: NOW_SECONDS - 300 }))).status).toBe(201);
  });

  test("signatures are checked against the wall clock, so moving the simulated clock locks nobody out", async () => {
    const sim = createTestSim();
    expect((await sim.call("POST", "/__sim/clock", { body: { advance_seconds: 3 * DAY_SECONDS } })).status).toBe(200);
    expect((await sim.call("POST", ONBOARD, signedOnboard({ timestamp: NOW_SECONDS }))).status).toBe(201);
  });

  test("a body changed after signing is refused", async () => {
    const sim = createTestSim();
    const tampered = JSON.stringify(anOnboardRequest({ plan: "pro" }));
    expectProblemShape(await sim.call("POST", ONBOARD, signedOnboard({ sentBody: tampered })), 401, "UNAUTHORIZED");
    expect(sim.store.all()).toHaveLength(0);
  });

  test("the signature covers the raw bytes, not a re-serialisation of the JSON", async () => {
    const sim = createTestSim();
    const spaced = JSON.stringify(anOnboardRequest(), null, 2);
    const headers = hmacHeaders({ method: "POST", target: ONBOARD, body: spaced });
    const response = await sim.call("POST", ONBOARD, {
      token: undefined,
      rawBody: spaced,
      headers: { ...headers, "content-type": "application/json" },
    });
    expect(response.status).toBe(201);
  });

  test("a signature made with another secret is refused", async () => {
    const sim = createTestSim();
    expectProblemShape(
      await sim.call("POST", ONBOARD, signedOnboard({ secret: "not-the-secret" })),
      401,
      "UNAUTHORIZED",
    );
  });

  test("of two v1 values one valid suffices (secret rotation)", async () => {
    const sim = createTestSim();
    const valid = signedOnboard().headers["x-marketplace-signature"];
    const stale = signedOnboard({ secret: "previous-secret" }).headers["x-marketplace-signature"];
    expect((await sim.call("POST", ONBOARD, signedOnboard({ signature: `${stale},${valid}` }))).status).toBe(201);
    const bothWrong = `${stale},${signedOnboard({ secret: "other" }).headers["x-marketplace-signature"]}`;
    const refused = await sim.call("POST", ONBOARD, signedOnboard({ signature: bothWrong }));
    expectProblemShape(refused, 401, "UNAUTHORIZED");
  });

  test("without PROVIDER_SIM_HMAC_SECRET a signature is not accepted at all", async () => {
    const sim = createTestSim({ PROVIDER_SIM_HMAC_SECRET: "" });
    expect(sim.config.hmacSecret).toBeUndefined();
    expectProblemShape(await sim.call("POST", ONBOARD, signedOnboard({ secret: HMAC_SECRET })), 401, "UNAUTHORIZED");
  });
});
