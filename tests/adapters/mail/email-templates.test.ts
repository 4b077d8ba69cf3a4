import { describe, expect, test } from "bun:test";
import { readEmailTemplates } from "../../../adapters/mail/email-templates.ts";
import { parseEmailTemplates } from "../../../adapters/wiring/mail.ts";
import { makeOpsAlerts } from "../../../application/alerts/ops-alerts.ts";
import type { OpsAlert } from "../../../application/alerts/ports.ts";
import { EMAIL_TEMPLATES, type NewEmail } from "../../../application/mail/ports.ts";
import { renderEmail } from "../../../application/mail/templates.ts";
import { customerEmail } from "../../../application/notifications/customer-email.ts";

const templates = parseEmailTemplates(readEmailTemplates());

async function alertEmail(alert: OpsAlert): Promise<NewEmail> {
  const queued: NewEmail[] = [];
  const alerts = makeOpsAlerts({
    queue: { queue: async (email) => void queued.push(email) },
    opsEmail: "ops@shop.example",
    publicBaseUrl: "https://shop.example",
  });
  await alerts.raise(alert);
  const [email] = queued;
  if (!email) throw new Error("nothing queued");
  return email;
}

const FACTS = {
  customer_email: "ada@example.com",
  customer_name: "Ada",
  product_name: "Point of Sale",
  order_id: "o-1",
  driver: "multitenant_saas",
  workspace_url: "https://acme.pos.example/",
  attempts: 3,
};

describe("the email template files", () => {
  test("there is one per email, each with a subject, a text and an HTML part", () => {
    expect(Object.keys(templates).sort()).toEqual([...EMAIL_TEMPLATES].sort());
  });

  test("each renders with exactly the values the code gives it", async () => {
    const emails: NewEmail[] = [
      customerEmail(
        { id: "n", kind: "fulfillment.ready", payload: {}, dispatched_at: null },
        FACTS,
        "https://shop.example",
      ),
      customerEmail(
        { id: "n", kind: "fulfillment.failed", payload: {}, dispatched_at: null },
        FACTS,
        "https://shop.example",
      ),
      customerEmail(
        { id: "n", kind: "fulfillment.action_required", payload: {}, dispatched_at: null },
        FACTS,
        "https://shop.example",
      ),
      await alertEmail({
        kind: "job_dead",
        target_id: "42",
        details: { job_kind: "fulfill", attempts: "8", last_error: "HTTP 500" },
      }),
      await alertEmail({
        kind: "order_needs_attention",
        target_id: "o-1",
        details: { reason: "amount differs", status: "paid", total: "4900 USD" },
      }),
      await alertEmail({
        kind: "task_overdue",
        target_id: "t-1",
        details: {
          task_kind: "manual_fulfillment",
          queue_id: "q",
          due_at: "2026-11-23T10:00:00.000Z",
          instructions: "Call",
        },
      }),
      await alertEmail({
        kind: "secret_destination",
        target_id: "pos_token",
        occurrence: "https://pos.example",
        details: {
          purpose: "a provider bearer token (provider_bearer_token)",
          address: "https://pos.example",
          actor_id: "a-1",
          via: "product p-1",
        },
      }),
    ];
    expect(emails.map((email) => email.template).sort()).toEqual([...EMAIL_TEMPLATES].sort());
    for (const email of emails) {
      const rendered = renderEmail(templates[email.template], email.data);
      expect(rendered.subject).not.toContain("{{");
      expect(rendered.text).not.toContain("{{");
      expect(rendered.html).not.toContain("{{");
      expect(rendered.html).toContain(email.data.link ?? email.data.action_url ?? "");
      expect(rendered.html).toStartWith("<!doctype html>");
    }
  });
});
