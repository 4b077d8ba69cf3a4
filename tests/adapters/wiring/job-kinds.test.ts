import { describe, expect, test } from "bun:test";
import { JOB_TYPES } from "../../../adapters/wiring/job-kinds.ts";
import type { AnyJobType } from "../../../application/shared/jobs.ts";

const root = new URL("../../../", import.meta.url).pathname;

const isJobType = (value: unknown): value is AnyJobType =>
  typeof value === "function" && "kind" in value && "read" in value && "dedupeKey" in value;

describe("the job kinds", () => {
  test("are the kinds stored in `jobs.kind`, each under its own", () => {
    expect(Object.keys(JOB_TYPES).sort()).toEqual([
      "email_changed",
      "email_link",
      "end_gateway_subscription",
      "expire_checkout",
      "fulfill",
      "fulfillment_action",
      "notify",
      "password_reset",
      "payment_event",
      "release_held_deliveries",
      "retire_discount",
      "send_email",
      "settle_refund",
      "webhook_delivery",
      "webhook_fanout",
      "webhook_replay",
    ]);
    for (const [kind, type] of Object.entries(JOB_TYPES)) expect<string>(type.kind).toBe(kind);
  });

  test("hold every job type a feature defines, so none is enqueued without a handler", async () => {
    const defined: AnyJobType[] = [];
    for (const path of new Bun.Glob("application/*/jobs.ts").scanSync({ cwd: root })) {
      const module: Record<string, unknown> = await import(`${root}${path}`);
      defined.push(...Object.values(module).filter(isJobType));
    }
    expect(defined.length).toBeGreaterThanOrEqual(10);
    const registered: readonly AnyJobType[] = Object.values(JOB_TYPES);
    for (const type of defined) expect(registered).toContain(type);
  });
});
