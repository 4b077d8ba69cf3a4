import { describe, expect, test } from "bun:test";
import { useTestDatabase } from "../support/database.ts";
import {
  buyAndPay,
  createProduct,
  eventually,
  fulfillmentReaches,
  http,
  posProductFor,
  registerCustomer,
  tenantsAtSimulator,
  useE2e,
} from "../support/e2e.ts";
import { useSmtpInbox } from "../support/smtp-inbox.ts";

const smtp = await useSmtpInbox();

const db = useTestDatabase();
const e2e = useE2e(db, {
  env: {
    ...smtp.env,
    REQUIRE_VERIFIED_EMAIL_FOR_DELIVERY: "true",
  },
});

async function emailOf(token: string): Promise<string> {
  return (await http(e2e.url, "GET", "/api/me", { token })).body.email as string;
}

/** The token of the verification link emailed to `email`. */
async function verificationToken(email: string): Promise<string> {
  const mail = await eventually(
    async () => smtp.inbox.to(email).find((m) => m.subject === "Confirm your email address"),
    8000,
    `the verification link to ${email}`,
  );
  const link = /https?:\/\/\S+\/account\/verify-email\?token=\S+/.exec(mail.text)?.[0] ?? "";
  return new URL(link).searchParams.get("token") ?? "";
}

describe("REQUIRE_VERIFIED_EMAIL_FOR_DELIVERY=true", () => {
  test("a paid order waits for the address, tells the customer, and delivers once it is verified", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const email = await emailOf(customer.token);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_b");

    const held = await fulfillmentReaches(db, orderId, "awaiting_customer");
    expect(await tenantsAtSimulator(e2e, orderId)).toBe(0);
    const dashboard = await http(e2e.url, "GET", "/api/dashboard", { token: customer.token });
    const item = dashboard.body.items.find((entry: { order_id: string }) => entry.order_id === orderId);
    expect(item.next_action).toMatchObject({ kind: "verify_email", url: "/api/auth/verify-email" });
    const told = await eventually(
      async () => smtp.inbox.to(email).find((m) => m.subject.includes("needs something from you")),
      8000,
      "the action-required email",
    );
    expect(told.text).toContain("Confirm your email address");
    // A domain cannot skip the wait.
    const input = await http(e2e.url, "POST", `/api/fulfillments/${held.id}/customer-input`, {
      token: customer.token,
      body: { domain: "shop.example.com" },
    });
    expect(input.status).toBe(409);

    const confirmed = await http(e2e.url, "POST", "/api/auth/verify-email/confirm", {
      body: { token: await verificationToken(email) },
    });
    expect(confirmed.status).toBe(204);
    await fulfillmentReaches(db, orderId, "active");
    expect(await tenantsAtSimulator(e2e, orderId)).toBe(1);
    const [record] = await db.current.sql<{ snapshot: Record<string, unknown> }[]>`
      select payload_snapshot as snapshot from fulfillment_records where order_id = ${orderId}`;
    expect(record?.snapshot.awaiting).toBeUndefined();
  });

  test("a customer who verified first is delivered at once", async () => {
    const product = await createProduct(e2e, posProductFor(e2e));
    const customer = await registerCustomer(e2e);
    const token = await verificationToken(await emailOf(customer.token));
    expect((await http(e2e.url, "POST", "/api/auth/verify-email/confirm", { body: { token } })).status).toBe(204);
    const { orderId } = await buyAndPay(e2e, customer, [{ product_id: product.id, variant: "monthly" }], "gateway_a");
    await fulfillmentReaches(db, orderId, "active");
  });
});
