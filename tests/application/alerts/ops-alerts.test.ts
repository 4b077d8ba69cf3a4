import { describe, expect, test } from "bun:test";
import { makeOpsAlerts } from "../../../application/alerts/ops-alerts.ts";
import type { NewEmail } from "../../../application/mail/ports.ts";

function queue() {
  const queued: NewEmail[] = [];
  return { queued, queue: { queue: async (email: NewEmail) => void queued.push(email) } };
}

describe("alerts to operations", () => {
  test("each occurrence is one email to OPS_EMAIL, keyed by kind, target and occurrence, with the admin link", async () => {
    const { queued, queue: emails } = queue();
    const alerts = makeOpsAlerts({
      queue: emails,
      opsEmail: "ops@shop.example",
      publicBaseUrl: "https://shop.example",
    });
    await alerts.raise({
      kind: "order_needs_attention",
      target_id: "o-1",
      occurrence: "amount",
      details: { reason: "r" },
    });
    await alerts.raise({ kind: "job_dead", target_id: "42", occurrence: "t1", details: { job_kind: "fulfill" } });
    expect(queued).toEqual([
      {
        key: "ops:order_needs_attention:o-1:amount",
        template: "ops.order_needs_attention",
        to: "ops@shop.example",
        data: { reason: "r", target_id: "o-1", link: "https://shop.example/api/admin/orders/o-1" },
      },
      {
        key: "ops:job_dead:42:t1",
        template: "ops.job_dead",
        to: "ops@shop.example",
        data: { job_kind: "fulfill", target_id: "42", link: "https://shop.example/api/admin/jobs?state=dead#42" },
      },
    ]);
  });

  test("without an operations address nothing is queued", async () => {
    const { queued, queue: emails } = queue();
    const alerts = makeOpsAlerts({ queue: emails, opsEmail: undefined, publicBaseUrl: "https://shop.example" });
    await alerts.raise({ kind: "task_overdue", target_id: "t-1", details: {} });
    expect(queued).toEqual([]);
  });
});
