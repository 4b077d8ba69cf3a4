import { describe, expect, test } from "bun:test";
import { readEmailTemplates } from "../../../adapters/mail/email-templates.ts";
import { parseEmailTemplates } from "../../../adapters/wiring/mail.ts";
import { makeOpsAlerts } from "../../../application/alerts/ops-alerts.ts";
import type { OpsAlert } from "../../../application/alerts/ports.ts";
import { makeSendEmailChangedNotice, makeSendEmailLink } from "../../../application/identity/email-links.ts";
import { makeSendPasswordReset } from "../../../application/identity/password-reset.ts";
import { EMAIL_TEMPLATES, type NewEmail } from "../../../application/mail/ports.ts";
import { renderEmail } from "../../../application/mail/templates.ts";
import { customerEmail } from "../../../application/notifications/customer-email.ts";
import { licenseEmail, licenseReadyEmail } from "../../../application/notifications/license-email.ts";
import { subscriptionEmail } from "../../../application/notifications/subscription-email.ts";
import { createInMemoryEmailLinks } from "../../support/fakes/in-memory-email-links.ts";
import { createInMemoryPasswordResets } from "../../support/fakes/in-memory-password-resets.ts";
import { createInMemoryUserRepository } from "../../support/fakes/in-memory-user-repository.ts";
import { createRecordingLog } from "../../support/fakes/recording-log.ts";
import { firstRun } from "../../support/jobs.ts";

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

/** The address emails as their jobs queue them, for an account of "Ada <Lovelace>": verify, change, notice. */
async function addressEmails(): Promise<NewEmail[]> {
  const queued: NewEmail[] = [];
  const users = createInMemoryUserRepository();
  const ada = await users.insert({
    email: "ada@example.com",
    name: "Ada <Lovelace>",
    role: "customer",
    passwordHash: "x",
  });
  if (!ada) throw new Error("seed failed");
  const queue = { queue: async (email: NewEmail) => void queued.push(email) };
  const send = makeSendEmailLink({
    users,
    links: createInMemoryEmailLinks(users),
    mail: { queue, publicBaseUrl: "https://shop.example" },
    ttlSeconds: 86_400,
    clock: () => new Date(),
    log: createRecordingLog(),
  });
  await send({ user_id: ada.id, email: ada.email, purpose: "verify" }, firstRun({ jobId: "1" }));
  await send({ user_id: ada.id, email: "new@example.com", purpose: "change" }, firstRun({ jobId: "2" }));
  const notice = makeSendEmailChangedNotice({ users, mail: { queue }, log: createRecordingLog() });
  await notice({ user_id: ada.id, previous_email: ada.email, email: "new@example.com" }, firstRun({ jobId: "3" }));
  return queued;
}

/** The reset email as the password reset job queues it, for an account of "Ada <Lovelace>". */
async function passwordResetEmail(): Promise<NewEmail> {
  const queued: NewEmail[] = [];
  const users = createInMemoryUserRepository();
  await users.insert({ email: "ada@example.com", name: "Ada <Lovelace>", role: "customer", passwordHash: "x" });
  const send = makeSendPasswordReset({
    users,
    resets: createInMemoryPasswordResets(users),
    mail: { queue: { queue: async (email) => void queued.push(email) }, publicBaseUrl: "https://shop.example" },
    ttlSeconds: 3600,
    clock: () => new Date(),
    log: createRecordingLog(),
  });
  await send({ email: "ada@example.com" }, firstRun());
  const [email] = queued;
  if (!email) throw new Error("no reset email queued");
  return email;
}

const FACTS = {
  customer_id: "cus-ada",
  customer_guest: false,
  customer_email: "ada@example.com",
  customer_name: "Ada",
  product_name: "Point of Sale",
  order_id: "o-1",
  driver: "multitenant_saas",
  workspace_url: "https://acme.pos.example/",
  attempts: 3,
  awaiting: null,
  license_key: null,
  entitlement_id: null,
};

const SUBSCRIBER = { ...FACTS, customer_name: "Ada <Lovelace>" };
const COMMON = {
  orderUrl: "https://shop.example/orders/o-1",
  accountLabel: "Your account",
  accountUrl: "https://shop.example/account",
};
const LINKS = {
  billingPortal: async (id: string) => `https://shop.example/api/subscriptions/${id}/billing-portal?expires=1&access=a`,
  invoice: async (order: string, payment: string) =>
    `https://shop.example/api/orders/${order}/payments/${payment}/invoice?access=a`,
};
const LICENSE_FACTS = { ...SUBSCRIBER, license_key: "MKT1.eyJ2IjoxfQ.c2ln" };
const licenseEmails = () => [
  licenseReadyEmail(
    { id: "n", kind: "fulfillment.ready", payload: {}, dispatched_at: null },
    LICENSE_FACTS,
    LICENSE_FACTS.license_key,
    { url: "https://shop.example/api/downloads/t.s", expires_at: new Date("2026-12-01T00:00:00Z") },
    COMMON,
  ),
  ...(["license.suspended", "license.reinstated", "license.reissued"] as const).map((kind) =>
    licenseEmail({ id: "n", kind, payload: {}, dispatched_at: null }, LICENSE_FACTS, COMMON),
  ),
];
const subscriptionEmails = () =>
  Promise.all(
    (
      [
        ["subscription.payment_failed", { subscription_id: "s-1" }],
        ["subscription.trial_ending", { subscription_id: "s-1", trial_ends_at: "2026-12-01T00:00:00Z" }],
        [
          "subscription.renewed",
          { subscription_id: "s-1", payment_id: "p-1", amount: 2900, currency: "EUR", current_period_end: null },
        ],
        [
          "subscription.plan_changed",
          { subscription_id: "s-1", from: "monthly", to: "yearly", current_period_end: "2027-06-01T00:00:00Z" },
        ],
      ] as const
    ).map(([kind, payload]) =>
      subscriptionEmail({ id: "n", kind, payload, dispatched_at: null }, SUBSCRIBER, COMMON, LINKS),
    ),
  );

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
      await passwordResetEmail(),
      ...(await addressEmails()),
      ...(await subscriptionEmails()),
      ...licenseEmails(),
    ];
    expect(emails.map((email) => email.template).sort()).toEqual([...EMAIL_TEMPLATES].sort());
    for (const email of emails) {
      const rendered = renderEmail(templates[email.template], email.data);
      expect(rendered.subject).not.toContain("{{");
      expect(rendered.text).not.toContain("{{");
      expect(rendered.html).not.toContain("{{");
      const { link, action_url, reset_url, verify_url, confirm_url, new_email, portal_url, invoice_url } = email.data;
      const shown =
        link ??
        action_url ??
        reset_url ??
        verify_url ??
        confirm_url ??
        new_email ??
        portal_url ??
        invoice_url ??
        email.data.account_url ??
        "";
      expect(shown).not.toBe("");
      expect(rendered.html).toContain(shown.replaceAll("&", "&amp;"));
      expect(rendered.html).toStartWith("<!doctype html>");
    }
  });
});
