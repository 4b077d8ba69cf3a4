import { describe, expect, test } from "bun:test";
import {
  ADMIN,
  type Problem,
  type Schemas,
  skipRule,
  statusPath,
  type Tenant,
  useContractTarget,
} from "./support/target.ts";

const target = await useContractTarget();
const noControls = !target.hasControls;
const NO_CONTROLS = "target exposes no /__sim controls";
const DAY_S = 86_400;

/** The provider's current (possibly simulated) time, from the overview. */
async function providerNow(): Promise<number> {
  const overview = await target.call<Schemas["Overview"]>("GET", `${ADMIN}/overview`);
  expect(overview.status).toBe(200);
  return Date.parse(overview.body.generated_at);
}

describe("simulated time and faults (needs /__sim controls)", () => {
  skipRule(15, noControls, NO_CONTROLS);
  test.skipIf(noControls)(
    "contract rule 15: a 1-day trial is expired after the clock advances 1 day + 1 minute",
    async () => {
      const { tenant } = await target.onboard({ trial_days: 1 });
      expect(tenant.status).toBe("trialing");
      await target.advanceClock(DAY_S + 60);
      const after = await target.call<Tenant>("GET", statusPath(tenant.external_reference_id));
      expect(after.status).toBe(200);
      expect(after.body.status).toBe("expired");
      expect(after.body.trial_ends_at).toBe(tenant.trial_ends_at);
    },
  );

  skipRule(16, noControls, NO_CONTROLS);
  test.skipIf(noControls)(
    "contract rule 16: an injected rate_limit fault on onboard answers 429 problem+json with a Retry-After header",
    async () => {
      const request = target.onboardRequest();
      await target.injectFault({ route: "onboard", mode: "rate_limit", count: 1, retry_after_s: 7 });
      const limited = await target.call<Problem>("POST", "/api/marketplace/onboard", { body: request });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("content-type")).toStartWith("application/problem+json");
      expect(limited.headers.get("retry-after")).toBe("7");
      // One call only, and it created nothing.
      const next = await target.call<Tenant>("POST", "/api/marketplace/onboard", { body: request });
      expect(next.status).toBe(201);
    },
  );

  skipRule(20, noControls, NO_CONTROLS);
  test.skipIf(noControls)(
    "contract rule 20: an active tenant's period rolls forward when the clock passes current_period_end",
    async () => {
      const { tenant } = await target.onboard();
      expect(tenant.status).toBe("active");
      expect(tenant.current_period_end).toBeString();
      const periodEnd = Date.parse(tenant.current_period_end as string);
      const now = await providerNow();
      await target.advanceClock(Math.ceil((periodEnd - now) / 1000) + 3600);
      const after = await target.call<Tenant>("GET", statusPath(tenant.external_reference_id));
      expect(after.status).toBe(200);
      expect(after.body.status).toBe("active");
      expect(Date.parse(after.body.current_period_end as string)).toBeGreaterThan(await providerNow());
    },
  );
});
