import { describe, expect, test } from "bun:test";
import { makeRetireDiscount } from "../../../application/discounts/retire-discount.ts";
import { CredentialsNotFound, UpstreamTimeout } from "../../../application/shared/errors.ts";
import type { JobContext } from "../../../application/shared/jobs.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";

/** The retirement uses nothing of its run but the payload. */
const run = { jobId: "job-1", attempt: 1, maxAttempts: 5, lastAttempt: false } as unknown as JobContext;

const retiring = (fail: Partial<Record<"gateway_a" | "gateway_b", Error>>) => {
  const retired: string[] = [];
  const gateway = (name: "gateway_a" | "gateway_b") => ({
    async retireDiscount(id: string) {
      const failure = fail[name];
      if (failure) throw failure;
      retired.push(`${name}:${id}`);
    },
  });
  const retire = makeRetireDiscount({
    gateways: { gateway_a: gateway("gateway_a"), gateway_b: gateway("gateway_b") },
    log: createRecordingLog(),
  });
  return { retire, retired };
};

describe("retiring a disabled code at the gateways", () => {
  test("asks every gateway", async () => {
    const { retire, retired } = retiring({});
    await retire({ discount_id: "d-1" }, run);
    expect(retired).toEqual(["gateway_a:d-1", "gateway_b:d-1"]);
  });

  test("skips a gateway that was never set up, and throws for any other failure so the job retries", async () => {
    const skipped = retiring({ gateway_a: new CredentialsNotFound("gateway", "api_key") });
    await skipped.retire({ discount_id: "d-2" }, run);
    expect(skipped.retired).toEqual(["gateway_b:d-2"]);
    const down = retiring({ gateway_b: new UpstreamTimeout("gateway", 10) });
    await expect(down.retire({ discount_id: "d-3" }, run)).rejects.toBeInstanceOf(UpstreamTimeout);
  });
});
