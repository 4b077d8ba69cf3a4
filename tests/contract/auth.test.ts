import { describe, expect, test } from "bun:test";
import {
  ADMIN,
  type ContractResponse,
  STATUS_PATH,
  skipRule,
  statusPath,
  type Tenant,
  unixNow,
  useContractTarget,
} from "./support/target.ts";

const target = await useContractTarget();
const ONBOARD = "/api/marketplace/onboard";
const noHmac = !target.hmacSecret;
const NO_HMAC_REASON = "no hmac secret known for the target (set PROVIDER_HMAC_SECRET to check hmac signing)";

/** A correctly signed request (wall-clock timestamp) must not be refused; explains the likely cause if it is. */
function expectSignedAccepted(response: ContractResponse, status: number): void {
  if (response.status === 401 && target.hasControls)
    throw new Error(
      "a correctly signed request (timestamp = wall-clock now) was refused with 401. The target exposes /__sim controls: if its clock was advanced (/__sim/clock), it may judge the 300 s window against simulated time instead of real time",
    );
  expect(response.status).toBe(status);
}

describe("provider authentication (openapi/provider.yaml securitySchemes)", () => {
  test("contract rule 1: a request without credentials or with a wrong bearer token gets 401 problem+json", async () => {
    const request = target.onboardRequest();
    const wrong = { bearer: `wrong-${crypto.randomUUID()}` };
    const refused = [
      await target.call("POST", ONBOARD, { body: request, auth: "none" }),
      await target.call("POST", STATUS_PATH, { body: { external_reference_id: request.order_id }, auth: "none" }),
      await target.call("GET", statusPath(request.order_id), { auth: "none" }),
      await target.call("GET", `${ADMIN}/overview`, { auth: "none" }),
      await target.call("GET", `${ADMIN}/tenants`, { auth: "none" }),
      await target.call("POST", ONBOARD, { body: request, auth: wrong }),
      await target.call("GET", `${ADMIN}/overview`, { auth: wrong }),
      await target.call("GET", `${ADMIN}/plans`, {
        headers: { authorization: `Basic ${btoa("qa:qa")}` },
        auth: "none",
      }),
    ];
    expect(refused.map((response) => response.status)).toEqual(refused.map(() => 401));
    for (const response of refused)
      expect(response.headers.get("content-type")).toStartWith("application/problem+json");
    // The refused onboarding created nothing: the first authenticated call creates the tenant.
    const accepted = await target.call<Tenant>("POST", ONBOARD, { body: request });
    expect(accepted.status).toBe(201);
  });
});

describe("hmac signing (YAML securitySchemes.hmac)", () => {
  skipRule(2, noHmac, NO_HMAC_REASON);
  test.skipIf(noHmac)(
    "contract rule 2: a correctly signed request is accepted; a stale timestamp or a tampered body gets 401",
    async () => {
      const request = target.onboardRequest();
      const body = JSON.stringify(request);
      const stale = await target.call("POST", ONBOARD, {
        rawBody: body,
        auth: { hmac: { timestamp: unixNow() - 301 - 30 } },
      });
      expect(stale.status).toBe(401);
      const future = await target.call("POST", ONBOARD, {
        rawBody: body,
        auth: { hmac: { timestamp: unixNow() + 301 + 30 } },
      });
      expect(future.status).toBe(401);
      const tamperedBody = JSON.stringify({ ...request, plan: `${request.plan}-tampered` });
      const tampered = await target.call("POST", ONBOARD, {
        rawBody: tamperedBody,
        auth: { hmac: { signedBody: body } },
      });
      expect(tampered.status).toBe(401);
      const wrongSecret = await target.call("POST", ONBOARD, {
        rawBody: body,
        auth: { hmac: { secret: `wrong-${crypto.randomUUID()}` } },
      });
      expect(wrongSecret.status).toBe(401);
      const signedQuery = await target.call("GET", `${ADMIN}/tenants?limit=2`, { auth: "hmac" });
      expectSignedAccepted(signedQuery, 200);

      // None of the refused attempts created the tenant; the signed one does, with no bearer token sent.
      const signed = await target.call<Tenant>("POST", ONBOARD, { rawBody: body, auth: "hmac" });
      expectSignedAccepted(signed, 201);
      const signedGet = await target.call<Tenant>("GET", statusPath(signed.body.external_reference_id), {
        auth: "hmac",
      });
      expectSignedAccepted(signedGet, 200);
      expect(signedGet.body.external_tenant_id).toBe(signed.body.external_tenant_id);
    },
  );

  skipRule(17, noHmac, NO_HMAC_REASON);
  test.skipIf(noHmac)(
    "contract rule 17: a signature header with several v1 values (secret rotation) is accepted when one matches",
    async () => {
      const rotated = await target.call("GET", `${ADMIN}/overview`, {
        auth: { hmac: { extraSignatures: ["0".repeat(64)] } },
      });
      expectSignedAccepted(rotated, 200);
      const noneMatch = await target.call("GET", `${ADMIN}/overview`, {
        auth: { hmac: { secret: `wrong-${crypto.randomUUID()}`, extraSignatures: ["0".repeat(64)] } },
      });
      expect(noneMatch.status).toBe(401);
    },
  );
});
